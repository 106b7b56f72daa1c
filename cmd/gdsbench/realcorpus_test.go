package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The PPTX reference is the text of each slide of LibreOffice's ODP
// conversion: paragraphs one a line, spaces and line breaks kept, speaker
// notes left out, slides separated by form feeds.
func TestODPText(t *testing.T) {
	content := `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0">
<office:body><office:presentation>
<draw:page draw:name="1"><draw:frame><draw:text-box>
<text:p>日本語<text:s/>with<text:line-break/>bxcjkjatype</text:p><text:h>Conclusion</text:h>
</draw:text-box></draw:frame>
<presentation:notes><draw:frame><draw:text-box><text:p>speaker notes</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
<draw:page draw:name="2"><draw:frame><draw:text-box><text:p><text:span>First</text:span> slide two</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document-content>`
	name := filepath.Join(t.TempDir(), "deck.odp")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create("content.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := odpText(name)
	if err != nil {
		t.Fatal(err)
	}
	if want := "日本語 with\nbxcjkjatype\nConclusion\n\fFirst slide two\n\f"; string(got) != want {
		t.Errorf("odpText = %q, want %q", got, want)
	}
}

// An XLSX reference joins the CSV export of each of its sheets, and only
// its own: Postp-col.xlsx's sheets also match Postp-*.csv.
func TestOfficeRefTextSheets(t *testing.T) {
	root, ref := t.TempDir(), t.TempDir()
	for name, body := range map[string]string{
		filepath.Join(root, "Postp.xlsx"):               "",
		filepath.Join(root, "Postp-col.xlsx"):           "",
		filepath.Join(ref, "Postp-Postp.csv"):           "より\t助詞\n",
		filepath.Join(ref, "Postp-Sheet2.csv"):          "second sheet\n",
		filepath.Join(ref, "Postp-col-Postp-col.csv"):   "にとり\t連語\n",
		filepath.Join(ref, "Postp-col-Postp-col-2.csv"): "also not\n",
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := officeRefText(rcItem{Format: "XLSX", Src: filepath.Join(root, "Postp.xlsx"), Ref: filepath.Join(ref, "Postp")})
	if err != nil {
		t.Fatal(err)
	}
	if want := "より\t助詞\n\nsecond sheet\n\n"; string(got) != want {
		t.Errorf("officeRefText(Postp.xlsx) = %q, want %q", got, want)
	}
}

func TestTreeMemory(t *testing.T) {
	rollup := "55d0c0a4b000-7ffd4f1f6000 ---p 00000000 00:00 0 [rollup]\nRss:               52144 kB\nPss:               15320 kB\nPss_Anon:           9000 kB\n"
	if pss, ok := rollupPSS(rollup); !ok || pss != 15320<<10 {
		t.Errorf("rollupPSS = %d %v, want %d", pss, ok, 15320<<10)
	}
	if _, ok := rollupPSS("Rss: 1 kB\n"); ok {
		t.Error("a rollup without Pss has none")
	}
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	rss, pss := treeMemory(os.Getpid())
	if rss <= 0 || pss <= 0 || pss > rss {
		t.Errorf("this process: RSS %d, PSS %d; want 0 < PSS <= RSS", rss, pss)
	}
}

// A PDF whose references disagree is not judged: its raw figures stay
// out of the judged ones (its reversed words, counted by letter form,
// stay in).
func TestAggregateLeavesOutUnjudged(t *testing.T) {
	judged := rcFile{rcItem: rcItem{Format: "PDF"}, Status: "indexed", Recall: 0.99, JRecall: 1, JPrecision: 1, Second: true, Boundaries: 100}
	unjudged := rcFile{rcItem: rcItem{Format: "PDF"}, Status: "indexed", Recall: 0.07, JRecall: 0.07, JPrecision: 0.2,
		Disagree: true, Joined: 30, JJoined: 30, Boundaries: 100, JCutPages: 2, JRTLRev: 3}
	a := rcAggregate([]rcFile{judged, unjudged})[0]
	if a.JRecallP10 != 1 || a.JPrecisionP10 != 1 || a.JRunTogether != 0 || a.JCutPages != 0 {
		t.Errorf("judged p10 %v/%v, run together %d, pages cut %d; want 1/1, 0, 0", a.JRecallP10, a.JPrecisionP10, a.JRunTogether, a.JCutPages)
	}
	if a.RecallP10 != 0.07 || a.RunTogether != 1 || a.Disagree != 1 || a.JRTLReversed != 3 {
		t.Errorf("raw p10 %v, raw run together %d, disagree %d, RTL %d; want 0.07, 1, 1, 3", a.RecallP10, a.RunTogether, a.Disagree, a.JRTLReversed)
	}
}
