package heuristic

import "github.com/stratagate/stratagate/model"

// ---- ops -------------------------------------------------------------------

// cites returns the current event's id as a citation list.
func (p *projector) cites() []uint64 { return []uint64{p.ev.ID} }

// node proposes upsert_node (kind, name) once per batch; later mentions
// add their event (up to maxOpCites) and tag.
func (p *projector) node(kind, name, tag string) {
	n, ok := cleanName(name)
	if !ok {
		return
	}
	if k, c, ok := p.knownKind(n); ok && k == kind {
		n = c
	}
	key := kind + "\x00" + nkey(n)
	if idx, ok := p.nodeOp[key]; ok {
		op := &p.ops[idx]
		op.EventIDs = addCite(op.EventIDs, p.ev.ID)
		if tag != "" && !containsFold(op.Tags, tag) && len(op.Tags) < maxProjTags {
			op.Tags = append(op.Tags, tag)
		}
		return
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	op := model.GraphOp{Op: model.OpUpsertNode, Kind: kind, Name: n, EventIDs: p.cites()}
	if tag == "" && kind == kindProject {
		tag = "project"
	}
	if tag != "" {
		op.Tags = []string{tag}
	}
	p.nodeOp[key] = len(p.ops)
	p.ops = append(p.ops, op)
}

// canonName returns the spelling the ops use for node (kind, name): the
// name of its upsert op when there is one.
func (p *projector) canonName(kind, name string) string {
	if idx, ok := p.nodeOp[kind+"\x00"+nkey(name)]; ok {
		return p.ops[idx].Name
	}
	return name
}

// alias proposes add_alias.
func (p *projector) alias(kind, name, alias string) {
	a, ok := cleanName(alias)
	if !ok || nkey(a) == nkey(name) {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	key := kind + "\x00" + nkey(name) + "\x00" + nkey(a)
	if idx, ok := p.aliasOp[key]; ok {
		p.ops[idx].EventIDs = addCite(p.ops[idx].EventIDs, p.ev.ID)
		return
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	p.aliasOp[key] = len(p.ops)
	p.ops = append(p.ops, model.GraphOp{Op: model.OpAddAlias, Kind: kind, Name: name, Alias: a, EventIDs: p.cites()})
}

// fact proposes set_fact on (kind, name).
func (p *projector) fact(kind, name, key, value, validFrom string) {
	v, ok := cleanValue(value)
	if !ok {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	p.emit(model.GraphOp{Op: model.OpSetFact, Kind: kind, Name: name, Key: key, Value: v, ValidFrom: validFrom, EventIDs: p.cites()}, key, v)
}

// edge proposes add_edge or close_edge citing the current event; an
// add_edge to a node kind first proposes that node.
func (p *projector) edge(op, kind, name, rel, target, targetKind, validFrom string) {
	p.emitEdge(op, kind, name, rel, target, targetKind, validFrom, p.cites())
}

func (p *projector) emitEdge(op, kind, name, rel, target, targetKind, validFrom string, cites []uint64) {
	t, ok := cleanName(target)
	if !ok || (kind == targetKind && nkey(t) == nkey(name)) {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	if op == model.OpAddEdge && targetKind != "" {
		tag := ""
		switch targetKind {
		case kindOrganization:
			if rel == relWorksAt {
				tag = "employer"
			}
		case kindProject:
			tag = "project"
		}
		p.node(targetKind, t, tag)
		t = p.canonName(targetKind, t)
	} else if op == model.OpCloseEdge {
		for _, k := range []string{kindPlace, kindOrganization, kindTool, kindPerson, kindProject} {
			if _, seen := p.nodeOp[k+"\x00"+nkey(t)]; seen {
				t = p.canonName(k, t)
				break
			}
		}
	}
	if op == model.OpCloseEdge {
		targetKind = ""
	}
	g := model.GraphOp{Op: op, Kind: kind, Name: name, Relation: rel, Target: t, TargetKind: targetKind, ValidFrom: validFrom, EventIDs: cites}
	p.emit(g, rel, t)
}

// emit appends op unless it repeats one: an op the current event already
// proposed is dropped; an op equal to the latest op on the same (node,
// key or relation, value or target) is merged into it (its events are
// added) — for a single-valued key or relation only when no other value
// was set after it, so that the order of changes survives.
func (p *projector) emit(op model.GraphOp, slot, value string) {
	slotKey := op.Kind + "\x00" + nkey(op.Name) + "\x00" + slot
	valueKey := slotKey + "\x00" + nkey(value)
	p.keyBuf = append(append(append(p.keyBuf[:0], op.Op...), 0), valueKey...)
	if p.evOps[string(p.keyBuf)] {
		return
	}
	evKey := string(p.keyBuf)
	adds := op.Op == model.OpSetFact || op.Op == model.OpAddEdge
	if idx, ok := p.target[valueKey]; ok && p.ops[idx].Op == op.Op && p.ops[idx].TargetKind == op.TargetKind {
		if !adds || !singleValued(slot) || p.lastAdd[slotKey] == idx {
			for _, id := range op.EventIDs {
				p.ops[idx].EventIDs = addCite(p.ops[idx].EventIDs, id)
			}
			p.evOps[evKey] = true
			return
		}
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	p.target[valueKey] = len(p.ops)
	if adds {
		p.lastAdd[slotKey] = len(p.ops)
	}
	p.evOps[evKey] = true
	p.ops = append(p.ops, op)
}

// addCite appends id to ids unless present or ids is full.
func addCite(ids []uint64, id uint64) []uint64 {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	if len(ids) >= maxOpCites {
		return ids
	}
	return append(ids, id)
}
