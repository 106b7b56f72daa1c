package extract

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestExtractSampleText(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"../../testdata/sample/docs/markitdown-mskanji-ja.csv", "髙橋淳"}, // CP932 extension character
		{"../../testdata/sample/docs/janome-lemon-ja.txt", "えたいの知れない不吉な塊が私の心を始終"},
		{"../../testdata/sample/docs/pdfminer-README.md", "We fathom PDF"},
	}
	for _, tt := range tests {
		f, err := os.Open(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Extract(context.Background(), MimeTypeByName(tt.file), f, 0)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if !strings.Contains(doc.Text(), tt.want) {
			t.Errorf("%s: text lacks %q", tt.file, tt.want)
		}
		if strings.Contains(doc.Text(), "\r") {
			t.Errorf("%s: CR left in text", tt.file)
		}
	}
}

func TestExtractRefusals(t *testing.T) {
	ctx := context.Background()
	if _, err := Extract(ctx, "image/png", strings.NewReader("\x89PNG"), 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("png: %v", err)
	}
	if _, err := Extract(ctx, "text/plain", strings.NewReader("0123456789"), 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too large: %v", err)
	}
	if _, err := Extract(ctx, "text/plain", strings.NewReader("a\x00b"), 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("NUL bytes: %v", err)
	}
}
