package driveemu_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/api/drive/v3"
	"google.golang.org/api/option"

	"github.com/gds-cli/gds/internal/driveemu"
)

// benchEmu is a folder of n text files of about 4 KB each (the size of the
// benchmark corpus's paragraphs).
func benchEmu(n int) (*driveemu.Emulator, string) {
	emu := driveemu.New()
	folder := emu.AddFolder("root", "bench")
	words := strings.Fields("drive search crawler index token phrase paragraph summary keyword vector embedding query folder shared export")
	for i := range n {
		var b strings.Builder
		for j := 0; b.Len() < 4000; j++ {
			b.WriteString(words[(i*7+j*3)%len(words)])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "unique%d", i)
		emu.AddBlob(folder, fmt.Sprintf("P%05d.txt", i), "text/plain", []byte(b.String()))
	}
	return emu, folder
}

func benchService(b *testing.B, h http.Handler) *drive.Service {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	svc, err := drive.NewService(context.Background(), option.WithEndpoint(srv.URL+"/drive/v3/"), option.WithoutAuthentication())
	if err != nil {
		b.Fatal(err)
	}
	return svc
}

func listPages(b *testing.B, svc *drive.Service, q string) int {
	n := 0
	err := svc.Files.List().Q(q).PageSize(100).Fields("nextPageToken, files(id,name,mimeType,modifiedTime,md5Checksum,size,parents)").
		Pages(context.Background(), func(l *drive.FileList) error { n += len(l.Files); return nil })
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkListFolder lists a 2,000-file folder (20 pages) through the real
// client. The "static" case replays the emulator's recorded answers from a
// map, so emulator/static is the emulator's own cost over HTTP + JSON.
//
//	go test ./internal/driveemu -run '^$' -bench ListFolder -benchtime 20x
func BenchmarkListFolder(b *testing.B) {
	emu, folder := benchEmu(2000)
	q := "'" + folder + "' in parents and trashed = false"
	b.Run("emulator", func(b *testing.B) {
		svc := benchService(b, emu)
		for b.Loop() {
			if n := listPages(b, svc, q); n != 2000 {
				b.Fatalf("%d files", n)
			}
		}
	})
	b.Run("static", func(b *testing.B) {
		var mu sync.Mutex
		recorded := map[string][]byte{}
		rec := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rw := httptest.NewRecorder()
			emu.ServeHTTP(rw, r)
			mu.Lock()
			recorded[r.URL.RawQuery] = rw.Body.Bytes()
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(rw.Body.Bytes())
		})
		listPages(b, benchService(b, rec), q)
		replay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			body := recorded[r.URL.RawQuery]
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		})
		svc := benchService(b, replay)
		for b.Loop() {
			if n := listPages(b, svc, q); n != 2000 {
				b.Fatalf("%d files", n)
			}
		}
	})
}

// BenchmarkFullText runs a two-word fullText query over 2,000 files of 4 KB
// (tokens are cached after the first query; "cold" rebuilds them each time).
//
//	go test ./internal/driveemu -run '^$' -bench FullText -benchtime 20x
func BenchmarkFullText(b *testing.B) {
	emu, _ := benchEmu(2000)
	svc := benchService(b, emu)
	query := func() {
		l, err := svc.Files.List().Q("fullText contains 'unique1234 search' and trashed = false").Do()
		if err != nil || len(l.Files) != 1 {
			b.Fatalf("%v %v", err, l)
		}
	}
	b.Run("warm", func(b *testing.B) {
		query()
		for b.Loop() {
			query()
		}
	})
	b.Run("cold", func(b *testing.B) {
		ids := emu.IDs()
		for b.Loop() {
			b.StopTimer()
			for _, id := range ids {
				f, _ := emu.File(id)
				emu.Touch(id, f.Content, f.ModifiedTime) // drops the cached tokens
			}
			b.StartTimer()
			query()
		}
	})
}

// BenchmarkDownload downloads a 4 KB file (alt=media).
func BenchmarkDownload(b *testing.B) {
	emu, _ := benchEmu(10)
	svc := benchService(b, emu)
	id := emu.IDs()[1]
	for b.Loop() {
		res, err := svc.Files.Get(id).Download()
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}
