package migrations

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestEmbedded(t *testing.T) {
	for name, load := range map[string]func() ([]Migration, error){"sqlite": SQLite, "postgres": Postgres} {
		ms, err := load()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, m := range ms {
			if m.Version != i+1 || m.SQL == "" {
				t.Errorf("%s: migration %d = %+v", name, i, m)
			}
		}
		if Latest(ms) != len(ms) {
			t.Errorf("%s: Latest = %d, want %d", name, Latest(ms), len(ms))
		}
	}
}

func TestLoadValidation(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name  string
		files map[string]*fstest.MapFile
		want  []string // names in order; nil: an error
	}{
		{"ordered", map[string]*fstest.MapFile{"d/0002_b.sql": file("B"), "d/0001_a.sql": file("A")}, []string{"0001_a.sql", "0002_b.sql"}},
		{"gap", map[string]*fstest.MapFile{"d/0001_a.sql": file("A"), "d/0003_c.sql": file("C")}, nil},
		{"repeat", map[string]*fstest.MapFile{"d/0001_a.sql": file("A"), "d/0001_b.sql": file("B")}, nil},
		{"not from one", map[string]*fstest.MapFile{"d/0002_b.sql": file("B")}, nil},
		{"short number", map[string]*fstest.MapFile{"d/1_a.sql": file("A")}, nil},
		{"no description", map[string]*fstest.MapFile{"d/0001.sql": file("A")}, nil},
		{"upper case", map[string]*fstest.MapFile{"d/0001_Init.sql": file("A")}, nil},
		{"other file", map[string]*fstest.MapFile{"d/0001_a.sql": file("A"), "d/README.md": file("x")}, nil},
		{"directory", map[string]*fstest.MapFile{"d/0001_a.sql": file("A"), "d/0002_b.sql/x": file("x")}, nil},
		{"blank", map[string]*fstest.MapFile{"d/0001_a.sql": file(" \n")}, nil},
		{"none", map[string]*fstest.MapFile{"other/0001_a.sql": file("A")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := Load(fstest.MapFS(tc.files), "d")
			if tc.want == nil {
				if err == nil {
					t.Fatalf("Load = %+v, want an error", ms)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.Name)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("Load = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] || ms[i].Version != i+1 {
					t.Errorf("Load[%d] = %+v, want %s version %d", i, ms[i], tc.want[i], i+1)
				}
			}
		})
	}
}

// SQLiteLatest reads the file names only; it must agree with Load.
func TestSQLiteLatestByName(t *testing.T) {
	ms, err := SQLite()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := SQLiteLatest(); err != nil || got != Latest(ms) || got == 0 {
		t.Errorf("SQLiteLatest = %d, %v; want %d", got, err, Latest(ms))
	}
	for _, tc := range []struct {
		files fstest.MapFS
		want  int
		ok    bool
	}{
		{fstest.MapFS{}, 0, true},
		{fstest.MapFS{"d/0001_a.sql": {}, "d/0002_b.sql": {}, "d/0010_c.sql": {}}, 10, true},
		{fstest.MapFS{"d/0001_a.sql": {}, "d/zz.sql": {}}, 0, false},
	} {
		tc.files["d"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755} // the directory, even when empty
		got, err := latestByName(tc.files, "d")
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("latestByName(%v) = %d, %v; want %d (ok %v)", tc.files, got, err, tc.want, tc.ok)
		}
	}
}
