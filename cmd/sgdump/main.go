package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/kv"
)

// Exit codes; doc.go documents them.
const (
	exitOK     = 0
	exitFail   = 1 // verify found errors, a named record does not exist, a command failed
	exitUsage  = 2 // bad usage, or the file cannot be opened
	exitLocked = 3 // a writer holds the file
)

const defaultDB = "memory.sg"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one sgdump invocation and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// command is one sgdump command.
type command struct {
	name    string
	args    string // argument synopsis, after the name
	summary string
	// define registers the command's own flags on fs and returns the
	// function that runs the command with them and its positional
	// arguments.
	define func(fs *flag.FlagSet) runner
}

// runner runs a command with its positional arguments.
type runner func(e *env, args []string) error

// noFlags is define for a command without flags of its own.
func noFlags(r runner) func(*flag.FlagSet) runner {
	return func(*flag.FlagSet) runner { return r }
}

// commands lists the registered commands in usage order. A new record
// family (events, graph) registers its commands here.
func commands() []*command {
	return []*command{
		statsCommand, threadsCommand, blocksCommand, blockCommand, eventsCommand, eventCommand,
		graphCommand, traceCommand, jobsCommand, retrievalsCommand, importsCommand, importCommand, searchCommand, verifyCommand, serveCommand,
	}
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// env is what a command runs with: the global flags, the output streams
// and the file, opened on first use.
type env struct {
	ctx     context.Context
	db      string
	json    bool
	timeout time.Duration
	stdout  io.Writer
	stderr  io.Writer

	mem *stratagate.Memory
}

// globalFlags registers -db, -json and -timeout on fs. Every command's flag
// set has them too, so they may also follow the command name; the current
// values are the defaults so that a later flag set does not reset them.
func (e *env) globalFlags(fs *flag.FlagSet) {
	fs.StringVar(&e.db, "db", e.db, "the StrataGate `FILE`")
	fs.BoolVar(&e.json, "json", e.json, "print one JSON document")
	fs.DurationVar(&e.timeout, "timeout", e.timeout, "how long to wait for a writer's lock (0 waits indefinitely)")
}

// exec parses c's flags and arguments and runs it.
func (e *env) exec(c *command, args []string) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.globalFlags(fs)
	r := c.define(fs)
	pos, err := parse(c, fs, args)
	if err != nil {
		return err
	}
	err = r(e, pos)
	if ue, ok := err.(*usageError); ok && ue.c == nil {
		ue.c = c
	}
	return err
}

// parse parses args with fs, allowing flags between positional arguments
// ("block 7 -level 3"); everything after "--" is positional.
func parse(c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp{c}
			}
			return nil, usageErrorf(c, "%v", err)
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// memory opens the file read-only on first use.
func (e *env) memory() (*stratagate.Memory, error) {
	if e.mem != nil {
		return e.mem, nil
	}
	lt := e.timeout
	if lt <= 0 {
		lt = -1 // stratagate: negative waits indefinitely
	}
	mem, err := stratagate.Open(e.db, &stratagate.Options{ReadOnly: true, LockTimeout: lt})
	if err != nil {
		return nil, openError(e, err)
	}
	e.mem = mem
	return mem, nil
}

func (e *env) close() {
	if e.mem != nil {
		_ = e.mem.Close()
		e.mem = nil
	}
}

// exitError carries an exit code and what to print on stderr (nothing when
// msg is empty).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// errHelp asks for a command's usage on stdout and exit 0.
type errHelp struct{ c *command }

func (errHelp) Error() string { return "help requested" }

// usageError is bad usage of command c (nil: of sgdump itself).
type usageError struct {
	c   *command
	msg string
}

func (u *usageError) Error() string { return u.msg }

func usageErrorf(c *command, format string, a ...any) error {
	return &usageError{c: c, msg: fmt.Sprintf(format, a...)}
}

// usagef is bad usage of the running command (exec fills it in).
func usagef(format string, a ...any) error { return usageErrorf(nil, format, a...) }

func failf(format string, a ...any) error {
	return &exitError{code: exitFail, msg: fmt.Sprintf(format, a...)}
}

func openError(e *env, err error) error {
	if errors.Is(err, stratagate.ErrLocked) {
		waited := "indefinitely"
		if e.timeout > 0 {
			waited = e.timeout.String()
		}
		return &exitError{code: exitLocked, msg: fmt.Sprintf("%s is locked by a writer (waited %s); retry when it is idle", e.db, waited)}
	}
	if errors.Is(err, stratagate.ErrVersionMismatch) && strings.Contains(err.Error(), "predates") {
		// sgdump only reads; a file of an older format needs one writable
		// Open, which migrates it (serve -write is one).
		return &exitError{code: exitUsage, msg: fmt.Sprintf("cannot open %s: %v\n(sgdump opens files read-only; a writable Open migrates the file: run `sgdump -db %s serve -write` once and stop it when it listens)", e.db, err, e.db)}
	}
	return &exitError{code: exitUsage, msg: fmt.Sprintf("cannot open %s: %v", e.db, err)}
}

// notFound is the error for a named record that does not exist.
func notFound(what string, id any) error {
	return failf("%s %v: not found", what, id)
}

func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, db: defaultDB, timeout: stratagate.DefaultLockTimeout, stdout: stdout, stderr: stderr}
	defer e.close()
	top := flag.NewFlagSet("sgdump", flag.ContinueOnError)
	top.SetOutput(io.Discard)
	e.globalFlags(top)
	if err := top.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "sgdump: %v\n", err)
		usage(stderr)
		return exitUsage
	}
	rest := top.Args()
	if len(rest) == 0 {
		fmt.Fprintln(stderr, "sgdump: no command")
		usage(stderr)
		return exitUsage
	}
	if rest[0] == "help" {
		if len(rest) > 1 {
			if c := lookup(rest[1]); c != nil {
				commandUsage(stdout, c)
				return exitOK
			}
		}
		usage(stdout)
		return exitOK
	}
	c := lookup(rest[0])
	if c == nil {
		fmt.Fprintf(stderr, "sgdump: unknown command %q\n", rest[0])
		usage(stderr)
		return exitUsage
	}
	return report(stdout, stderr, e.safeExec(c, rest[1:]))
}

// safeExec runs c, turning a panic (a file damaged in a way a reader did
// not expect) into an error: sgdump reads damaged files by design.
func (e *env) safeExec(c *command, args []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = failf("reading %s failed: %v (the file may be damaged; try sgdump verify)", e.db, r)
		}
	}()
	// A memory fault on a damaged page is a panic too, not a crash.
	defer kv.SetPanicOnFault()()
	return e.exec(c, args)
}

// report prints err (if any) and returns the exit code it stands for.
func report(stdout, stderr io.Writer, err error) int {
	// Error messages quote stored names and damaged bytes.
	stderr = &flushingEscaper{newEscaper(stderr)}
	var (
		help errHelp
		ue   *usageError
		ee   *exitError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &help):
		commandUsage(stdout, help.c)
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "sgdump: %s\n", ue.msg)
		if ue.c != nil {
			commandUsage(stderr, ue.c)
		} else {
			usage(stderr)
		}
		return exitUsage
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintf(stderr, "sgdump: %s\n", ee.msg)
		}
		return ee.code
	case errors.Is(err, stratagate.ErrLocked):
		fmt.Fprintf(stderr, "sgdump: %v\n", err)
		return exitLocked
	case errors.Is(err, stratagate.ErrInvalidInput), errors.Is(err, stratagate.ErrScope):
		fmt.Fprintf(stderr, "sgdump: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "sgdump: %v\n", err)
		return exitFail
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: sgdump [-db FILE] [-json] [-timeout D] COMMAND [ARGS]

Inspect and audit a StrataGate file. sgdump only reads: it opens the file
read-only and waits at most -timeout for a writer's lock.

commands:
`)
	const col = 22
	for _, c := range commands() {
		syn := strings.TrimSpace(c.name + " " + c.args)
		if len(syn) > col {
			fmt.Fprintf(w, "  %s\n  %-*s  %s\n", syn, col, "", c.summary)
		} else {
			fmt.Fprintf(w, "  %-*s  %s\n", col, syn, c.summary)
		}
	}
	fmt.Fprintf(w, `
flags (before or after the command):
  -db FILE      the StrataGate file (default %s)
  -json         print exactly one JSON document (snake_case fields)
  -timeout D    how long to wait for a writer's lock (default %s; 0 waits indefinitely)

exit codes: 0 ok; 1 verify found errors, record not found or command failed;
2 usage error or file cannot be opened; 3 file locked by a writer.
Run "sgdump help COMMAND" for a command's flags.
`, defaultDB, stratagate.DefaultLockTimeout)
}

func commandUsage(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: sgdump [-db FILE] [-json] [-timeout D] %s %s\n\n%s\n", c.name, c.args, c.summary)
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.define(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// parseID parses a positive record id.
func parseID(what, s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, usagef("bad %s id %q: want a positive integer", what, s)
	}
	return id, nil
}

// oneOf checks s against the allowed values.
func oneOf(flagName, s string, allowed ...string) error {
	if s == "" || slices.Contains(allowed, s) {
		return nil
	}
	return usagef("-%s %q: want one of %s", flagName, s, strings.Join(allowed, ", "))
}
