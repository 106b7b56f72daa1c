// Command hostile-corpus writes the hostile corpus (package
// internal/hostile) into a folder, for shell scripts and end-to-end tests:
//
//	go run ./internal/hostile/cmd/hostile-corpus [-huge-line-bytes N] [-bomb-bytes N] DIR
//
// It prints one line per file: name, size in bytes, probe.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gds-cli/gds/internal/hostile"
)

func main() {
	var o hostile.Options
	flag.Int64Var(&o.HugeLineBytes, "huge-line-bytes", 0, "size of text-huge-line.txt (default 500,000,000)")
	flag.Int64Var(&o.LongLineBytes, "long-line-bytes", 0, "size of text-long-line.txt (default 49 MiB)")
	flag.Int64Var(&o.BombBytes, "bomb-bytes", 0, "what each compression bomb inflates to (default 2 GiB)")
	flag.Int64Var(&o.PartBytes, "part-bytes", 0, "size of the huge OOXML parts (default 60,000,000)")
	flag.Int64Var(&o.SharedStringCells, "shared-string-cells", 0, "cells repeating the 100 KB shared string (default 20,000)")
	flag.Int64Var(&o.HTMLBytes, "html-bytes", 0, "size of html-many-elements.html (default 48 MiB)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: hostile-corpus [flags] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	files, err := hostile.WriteDir(dir, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile-corpus:", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Printf("%s\t%d\t%s\n", filepath.Join(dir, f.Name), f.Size, f.Probe)
	}
}
