//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/hostile"
)

// The hostile corpus (internal/hostile: cross-reference loops, recursive
// forms, compression and zip bombs, amplifying spreadsheets, huge parts,
// deep nesting, broken encodings) goes through the real binary: a crawl
// and an upload of every file. Each file ends as text or as a name-only
// entry with its reason, nothing takes a process past the memory bound,
// and the server answers /health during every upload, survives them all,
// and is idle once they end.
//
// Linux only: the server's processor time is read from /proc.
func TestHostileCorpus(t *testing.T) {
	bin := gdsBinary(t)
	t.Parallel()
	dir := t.TempDir()
	files, err := hostile.WriteDir(dir, hostile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("crawl", func(t *testing.T) { hostileCrawl(t, bin, dir, files) })
	t.Run("upload", func(t *testing.T) { hostileUploads(t, bin, dir, files) })
}

// peakRSSLimit bounds the resident size of every process of a crawl or a
// server reading the corpus (the gds process and each of its workers).
const peakRSSLimit = 1536 << 20

func hostileCrawl(t *testing.T, bin, dir string, files []hostile.File) {
	home := t.TempDir()
	cmd := crawlCmd(bin, home, dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := runBounded(cmd, 15*time.Minute); err != nil {
		t.Fatalf("crawl of the hostile corpus: %v\n%s", err, out.String())
	}
	// Maxrss of a reaped child covers its own reaped children: the
	// largest of gds and its workers.
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("crawl of %d hostile files: peak RSS %d MiB, processor time %s", len(files), peak>>20, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	if peak > peakRSSLimit {
		t.Errorf("peak RSS %d MiB, over %d MiB", peak>>20, peakRSSLimit>>20)
	}
	text := out.String()
	for _, f := range files {
		line := regexp.MustCompile(`(?m)^\S+ (indexed|skipped) ` + regexp.QuoteMeta(f.Name) + `(: .*)?$`).FindString(text)
		switch {
		case line == "":
			t.Errorf("%s (%s): no indexed or skipped line in the crawl's output", f.Name, f.Probe)
		case strings.Contains(line, " skipped ") && !strings.Contains(line, "(indexed by name only)"):
			t.Errorf("%s: skipped without a name-only entry: %s", f.Name, line)
		default:
			t.Logf("%s", line)
		}
	}
	if strings.Contains(text, "FAILED") {
		t.Errorf("a file failed (a crash or a read error, not a limit):\n%s", text)
	}
}

func hostileUploads(t *testing.T, bin, dir string, files []hostile.File) {
	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
	srv.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if srv.ProcessState == nil {
			_ = srv.Process.Kill()
			_ = srv.Wait()
		}
	}()
	base := listeningURL(t, stderr)

	// /health is asked at the start of every upload and every 200 ms
	// while it runs.
	client := &http.Client{Timeout: 30 * time.Second}
	var (
		hmu       sync.Mutex
		healthMax time.Duration
		healthN   int
		healthErr []string
	)
	health := func() {
		start := time.Now()
		res, err := client.Get(base + "/health")
		took := time.Since(start)
		hmu.Lock()
		defer hmu.Unlock()
		healthN++
		healthMax = max(healthMax, took)
		switch {
		case err != nil:
			healthErr = append(healthErr, err.Error())
		case res.StatusCode != http.StatusOK:
			healthErr = append(healthErr, res.Status)
		}
		if res != nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	during := func(upload func()) {
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			for {
				health()
				select {
				case <-done:
					return
				case <-tick.C:
				}
			}
		}()
		upload()
		close(done)
		wg.Wait()
	}

	var slowest time.Duration
	for _, f := range files {
		var (
			status int
			body   string
			err    error
		)
		start := time.Now()
		during(func() { status, body, err = upload(client, base, filepath.Join(dir, f.Name)) })
		took := time.Since(start)
		slowest = max(slowest, took)
		switch {
		case err != nil && f.Size > app.DefaultMaxUpload:
			// The server refuses the body at its limit and may close the
			// connection before the client has sent it all.
			t.Logf("upload %s (%d bytes, over the limit): %v", f.Name, f.Size, err)
		case err != nil:
			t.Errorf("upload %s (%s): %v", f.Name, f.Probe, err)
		case !slices.Contains([]int{http.StatusCreated, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity}, status):
			// Indexed, or refused for the file's own sake: unsupported or
			// no text (400), over the size limit (413), malformed or too
			// complex to read safely (422).
			t.Errorf("upload %s (%s): %d %s", f.Name, f.Probe, status, body)
		default:
			t.Logf("upload %s: %d in %s: %.200s", f.Name, status, took.Round(time.Millisecond), body)
		}
	}
	t.Logf("slowest upload: %s", slowest.Round(time.Millisecond))
	t.Logf("/health: %d answers during the uploads, slowest %s", healthN, healthMax)
	if healthN < len(files) {
		t.Errorf("/health asked %d times for %d uploads", healthN, len(files))
	}
	if len(healthErr) > 0 {
		t.Errorf("/health failed %d times during the uploads: %v", len(healthErr), healthErr)
	}

	// Once the uploads end, nothing of the server keeps a core busy: no
	// parser left running in it or in a worker.
	const window = 3 * time.Second
	before := treeCPU(t, srv.Process.Pid)
	time.Sleep(window)
	used := treeCPU(t, srv.Process.Pid) - before
	t.Logf("server after the uploads: %s of processor time in %s", used, window)
	if used > window/5 {
		t.Errorf("the server used %s of processor time in the %s after the uploads (over 20%%)", used, window)
	}
	if res, err := client.Get(base + "/health"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the server did not survive the uploads: %v %v", res, err)
	}
	if srv.ProcessState != nil {
		t.Fatalf("the server ended: %v", srv.ProcessState)
	}
	_ = srv.Process.Signal(syscall.SIGTERM)
	_ = srv.Wait()
	if ru, ok := srv.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak := ru.Maxrss << 10
		t.Logf("server: peak RSS %d MiB (the largest of the server and its workers)", peak>>20)
		if peak > peakRSSLimit {
			t.Errorf("server peak RSS %d MiB, over %d MiB", peak>>20, peakRSSLimit>>20)
		}
	}
}

// runBounded runs cmd and kills it if it is still running after limit (a
// hang fails the test with what it printed instead of the test binary's
// timeout).
func runBounded(cmd *exec.Cmd, limit time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	timer := time.AfterFunc(limit, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	if !timer.Stop() {
		return fmt.Errorf("still running after %s: killed", limit)
	}
	return err
}

var listenLine = regexp.MustCompile(`listening on (http://\S+)`)

// listeningURL reads the server's stderr until it names its address, and
// drains the rest in the background.
func listeningURL(t *testing.T, r io.Reader) string {
	t.Helper()
	sc := bufio.NewScanner(r)
	found := make(chan string, 1)
	go func() {
		sent := false
		for sc.Scan() {
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatal("gds serve ended without listening")
		}
		return u
	case <-time.After(2 * time.Minute):
		t.Fatal("gds serve did not say where it listens")
	}
	return ""
}

// upload posts one file as the web UI does, streaming it from disk.
func upload(client *http.Client, base, path string) (int, string, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		defer f.Close()
		part, err := mw.CreateFormFile("file", filepath.Base(path))
		if err == nil {
			_, err = io.Copy(part, f)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/documents/upload", pr)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	c := *client
	c.Timeout = 10 * time.Minute
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	return res.StatusCode, string(body), nil
}

// treeCPU is the processor time used so far by pid and its children
// (the server and its workers), from /proc.
func treeCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	ticks := func(p string) int64 {
		b, err := os.ReadFile(filepath.Join("/proc", p, "stat"))
		if err != nil {
			return 0
		}
		// The fields after the command name, which is in parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 13 {
			return 0
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		return u + s
	}
	parentOf := func(p string) string {
		b, err := os.ReadFile(filepath.Join("/proc", p, "stat"))
		if err != nil {
			return ""
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 2 {
			return ""
		}
		return f[1]
	}
	total := ticks(strconv.Itoa(pid))
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil && parentOf(e.Name()) == strconv.Itoa(pid) {
			total += ticks(e.Name())
		}
	}
	// USER_HZ is 100 on every Linux gds runs on.
	return time.Duration(total) * 10 * time.Millisecond
}
