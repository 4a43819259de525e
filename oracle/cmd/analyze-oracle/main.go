// analyze-oracle: istioctl's own `analyze` command, run in one process for many workspaces
// (the differential oracle, issue #29; starting istioctl once per workspace is slow).
//
// It reads JSON lines on stdin:
//
//	{"id": any, "files": [{"name": "a.yaml", "text": "..."}], "args": ["-o", "json", ...], "paths": [...]}
//
// writes the files into a fresh temporary directory (a name may have folders: "dir/b.yml"),
// makes that directory the working directory, and executes istioctl's root command as
// istioctl's main builds it (cmd.GetRootCmd: the CLI context, the logging flags, every
// subcommand) with `analyze --use-kube=false ARGS... NAMES...`, the file names relative to
// that directory ("paths", when given, replaces the file names: a directory, or files without
// a mesh config file passed with --meshConfigFile). File descriptors 1 and 2 point at capture files while it runs, so what
// istioctl writes itself (cobra's output, fmt.Print, Istio's logger) lands where it would.
// The returned error becomes the exit code as istioctl's main computes it (cmd.GetExitCode:
// AnalyzerFoundIssuesError 79, FileParseError 65, a usage error 64, anything else 1). A panic
// is exit 2, as the Go runtime's. It answers one JSON line per request:
//
//	{"id": same, "stdout": "...", "stderr": "...", "exit": 79}
//
// Package-level flag state: cobra/pflag reset a variable to its default when the flag is
// defined, which GetRootCmd does afresh for each request, except for flags defined with Var
// (analyze's --failure-threshold and --output-threshold keep whatever the last run set); those
// two are set back to istioctl's defaults (Error, Info) before each run.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"istio.io/istio/istioctl/cmd"
	"istio.io/istio/pkg/log"
)

type file struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type request struct {
	ID    json.RawMessage `json:"id"`
	Files []file          `json:"files"`
	Args  []string        `json:"args"`
	// The command line's file and directory arguments, relative to the directory; by default
	// the name of every file (a mesh config file, say, is written but left off this list).
	Paths *[]string `json:"paths,omitempty"`
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Stdout string          `json:"stdout"`
	Stderr string          `json:"stderr"`
	Exit   int             `json:"exit"`
	Error  string          `json:"error,omitempty"`
}

// Flags defined with pflag's Var keep their value from one command tree to the next.
var varFlagDefaults = map[string]string{"failure-threshold": "Error", "output-threshold": "Info"}

func main() {
	// What istioctl's main does once, before building its root command.
	if err := cmd.ConfigAndEnvProcessing(); err != nil {
		fmt.Fprintf(os.Stderr, "Could not initialize: %v\n", err)
		os.Exit(cmd.GetExitCode(err))
	}
	log.EnableKlogWithCobra()

	// Our own channel: a copy of the original stdout, as fd 1 is redirected during runs.
	outFd, err := syscall.Dup(1)
	if err != nil {
		fmt.Fprintf(os.Stderr, "analyze-oracle: dup stdout: %v\n", err)
		os.Exit(1)
	}
	errFd, err := syscall.Dup(2)
	if err != nil {
		fmt.Fprintf(os.Stderr, "analyze-oracle: dup stderr: %v\n", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.NewFile(uintptr(outFd), "protocol"))
	home, _ := os.Getwd()

	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, readErr := in.ReadBytes('\n')
		if len(line) > 0 && !(len(line) == 1 && line[0] == '\n') {
			var req request
			var resp response
			if err := json.Unmarshal(line, &req); err != nil {
				resp = response{ID: json.RawMessage("null"), Exit: -1, Error: "bad request: " + err.Error()}
			} else {
				resp = runOne(req, errFd)
				resp.ID = req.ID
			}
			_ = os.Chdir(home)
			if err := enc.Encode(resp); err != nil {
				os.Exit(1)
			}
			if err := out.Flush(); err != nil {
				os.Exit(1)
			}
		}
		if readErr == io.EOF {
			return
		}
		if readErr != nil {
			fmt.Fprintf(os.NewFile(uintptr(errFd), "stderr"), "analyze-oracle: read: %v\n", readErr)
			os.Exit(1)
		}
	}
}

func runOne(req request, errFd int) (resp response) {
	dir, err := os.MkdirTemp("", "analyze-oracle-")
	if err != nil {
		return response{Exit: -1, Error: err.Error()}
	}
	defer os.RemoveAll(dir)
	names := make([]string, 0, len(req.Files))
	for _, f := range req.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return response{Exit: -1, Error: err.Error()}
		}
		if err := os.WriteFile(p, []byte(f.Text), 0o644); err != nil {
			return response{Exit: -1, Error: err.Error()}
		}
		names = append(names, f.Name)
	}
	if err := os.Chdir(dir); err != nil {
		return response{Exit: -1, Error: err.Error()}
	}
	stdoutFile, err := os.CreateTemp("", "analyze-oracle-stdout-")
	if err != nil {
		return response{Exit: -1, Error: err.Error()}
	}
	defer os.Remove(stdoutFile.Name())
	defer stdoutFile.Close()
	stderrFile, err := os.CreateTemp("", "analyze-oracle-stderr-")
	if err != nil {
		return response{Exit: -1, Error: err.Error()}
	}
	defer os.Remove(stderrFile.Name())
	defer stderrFile.Close()

	saved1, _ := syscall.Dup(1)
	saved2, _ := syscall.Dup(2)
	_ = syscall.Dup2(int(stdoutFile.Fd()), 1)
	_ = syscall.Dup2(int(stderrFile.Fd()), 2)
	restore := func() {
		_ = os.Stdout.Sync()
		_ = os.Stderr.Sync()
		_ = syscall.Dup2(saved1, 1)
		_ = syscall.Dup2(saved2, 2)
		_ = syscall.Close(saved1)
		_ = syscall.Close(saved2)
	}

	exit := 0
	func() {
		defer func() {
			if p := recover(); p != nil {
				// As the Go runtime prints an unrecovered panic, and its exit code.
				fmt.Fprintf(os.Stderr, "panic: %v\n\n%s", p, debug.Stack())
				exit = 2
			}
		}()
		args := append([]string{"analyze", "--use-kube=false"}, req.Args...)
		if req.Paths != nil {
			names = *req.Paths
		}
		args = append(args, names...)
		root := cmd.GetRootCmd(args)
		if analyze, _, err := root.Find([]string{"analyze"}); err == nil && analyze != nil {
			for name, def := range varFlagDefaults {
				if f := analyze.PersistentFlags().Lookup(name); f != nil {
					_ = f.Value.Set(def)
					f.DefValue = def
					f.Changed = false
				}
			}
		}
		if err := root.Execute(); err != nil {
			exit = cmd.GetExitCode(err)
		}
	}()
	restore()

	stdout, _ := os.ReadFile(stdoutFile.Name())
	stderr, _ := os.ReadFile(stderrFile.Name())
	return response{Stdout: string(stdout), Stderr: string(stderr), Exit: exit}
}
