package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// stopKeyServer stops the keystroke server of the gds home (removing its
// socket stops it) and waits — at most 10 s — until it has let go of its
// lock, so the next keystroke starts a server of the binary measured.
func stopKeyServer(home string) {
	sock := filepath.Join(home, "keystroke.sock")
	if err := os.Remove(sock); err != nil {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for keyServerPID(home) != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// settleKeyServer waits until the home's keystroke server has stopped
// working on its own — it reads the index's full text into memory after it
// starts — judged by its CPU time growing by under 10 ms in a second, at
// most limit; it returns how long it waited.
func settleKeyServer(home string, limit time.Duration) time.Duration {
	start := time.Now()
	last := keyServerCPU(home)
	for time.Since(start) < limit {
		time.Sleep(time.Second)
		now := keyServerCPU(home)
		if now-last < 10*time.Millisecond {
			break
		}
		last = now
	}
	return time.Since(start)
}

// keyServerPID is the process ID of the home's keystroke server (Linux:
// a process `… alfred keyserver` whose environment has GDS_HOME=home), or 0.
func keyServerPID(home string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.HasSuffix(bytes.TrimRight(cmd, "\x00"), []byte("alfred\x00keyserver")) {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00GDS_HOME="+home+"\x00")) {
			return pid
		}
	}
	return 0
}

// keyServerCPU is the CPU time (user + system) the home's keystroke server
// has used so far (Linux /proc; 0 when there is none or it cannot be read).
func keyServerCPU(home string) time.Duration {
	pid := keyServerPID(home)
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// Fields after the command name (in parentheses): utime and stime are
	// the 14th and 15th fields of the line, in clock ticks (100 per second
	// on Linux).
	rest := string(b[bytes.LastIndexByte(b, ')')+1:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
