// Package corrupt damages files for StrataGate's corruption tests: seeded,
// reproducible bit flips, page overwrites and truncations of a real store.
// It is test support; nothing in the library imports it.
package corrupt

import (
	"fmt"
	"math/rand/v2"
)

// PageSize is the page size the damage aims at (bbolt's default on the
// platforms we test on): page overwrites and the choice of "one page"
// follow it.
const PageSize = 4096

// Damage returns a damaged copy of data (data itself is not modified) and
// a description of what was done. The same seed always does the same
// damage to the same bytes. Seeds cycle through four kinds:
//
//	0: 1–64 bits flipped anywhere in the file;
//	1: 1–16 bits flipped inside one page (meta pages included);
//	2: the file truncated at a random length (page-aligned or not);
//	3: one page (never a meta page) overwritten with random bytes or zeros.
func Damage(data []byte, seed uint64) ([]byte, string) {
	out := append([]byte(nil), data...)
	if len(out) == 0 {
		return out, "empty file, unchanged"
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	pages := (len(out) + PageSize - 1) / PageSize
	switch seed % 4 {
	case 0:
		n := 1 + rng.IntN(64)
		for range n {
			flip(out, rng.IntN(len(out)), rng)
		}
		return out, fmt.Sprintf("%d bits flipped anywhere", n)
	case 1:
		p := rng.IntN(pages)
		n := 1 + rng.IntN(16)
		for range n {
			off := p*PageSize + rng.IntN(PageSize)
			if off < len(out) {
				flip(out, off, rng)
			}
		}
		return out, fmt.Sprintf("%d bits flipped in page %d", n, p)
	case 2:
		n := rng.IntN(len(out))
		if rng.IntN(2) == 0 {
			n -= n % PageSize
		}
		return out[:n], fmt.Sprintf("truncated to %d of %d bytes", n, len(data))
	default:
		if pages <= 2 {
			return out[:len(out)/2], "truncated to half"
		}
		p := 2 + rng.IntN(pages-2)
		end := min((p+1)*PageSize, len(out))
		zero := rng.IntN(2) == 0
		for i := p * PageSize; i < end; i++ {
			if zero {
				out[i] = 0
			} else {
				out[i] = byte(rng.Uint32())
			}
		}
		if zero {
			return out, fmt.Sprintf("page %d zeroed", p)
		}
		return out, fmt.Sprintf("page %d overwritten with random bytes", p)
	}
}

func flip(b []byte, off int, rng *rand.Rand) { b[off] ^= 1 << rng.IntN(8) }
