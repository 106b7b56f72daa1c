package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
)

// TestEmulatorServesOfflineProviderToOpenAIClient runs the command, points
// the OpenAI provider at it and checks that the offline provider's answers
// come back through the OpenAI wire protocol.
func TestEmulatorServesOfflineProviderToOpenAIClient(t *testing.T) {
	t.Setenv("LANG", "C")
	t.Setenv("EMU_KEY", "sk-emulator-demo")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet", "-key-env", "EMU_KEY"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var base string
	for base == "" && sc.Scan() {
		base = regexp.MustCompile(`http://[0-9.:]+/v1`).FindString(sc.Text())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if base == "" {
		t.Fatal("the emulator printed no base URL")
	}

	p, err := openai.New(openai.Config{BaseURL: base, APIKey: "sk-emulator-demo", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 5, 15, 10, 0, 0, 0, time.UTC)
	qa, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "先月の議事録PDF", Now: now, Lang: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	want := ai.Filters{ModifiedAfter: "2025-04-01", ModifiedBefore: "2025-05-01", FileType: ai.FileTypePDF}
	if !slices.Contains(qa.Keywords, "議事録") || qa.Filters != want {
		t.Errorf("analysis = %+v, want keyword 議事録 and %+v", qa, want)
	}
	v, err := p.Embed(context.Background(), []string{"議事録", "budget"})
	if err != nil || len(v) != 2 || len(v[0]) != 1536 {
		t.Errorf("embed: %d vectors, %v", len(v), err)
	}
	var text string
	err = ai.Answer(context.Background(), p, ai.AnswerInput{Question: "予算は？", Lang: "ja",
		Contexts: []ai.AnswerContext{{Ref: 1, FileName: "plan.pdf", Text: "予算は300万円です。"}}},
		func(d string) error { text += d; return nil })
	if err != nil || text == "" {
		t.Errorf("answer %q, %v", text, err)
	}

	bad, _ := openai.New(openai.Config{BaseURL: base, APIKey: "sk-wrong", MaxRetries: -1})
	if _, err := bad.Embed(context.Background(), []string{"x"}); err == nil {
		t.Error("a wrong key was accepted")
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the emulator did not stop when its context ended")
	}
}

func TestUnknownBackendIsRejected(t *testing.T) {
	t.Setenv("LANG", "C")
	err := run(context.Background(), []string{"-backend", "gpt5"}, io.Discard, io.Discard)
	if err == nil || !regexp.MustCompile(`offline or simple`).MatchString(err.Error()) {
		t.Errorf("err = %v", err)
	}
}

func TestBadLimitFlagsAreRejected(t *testing.T) {
	t.Setenv("LANG", "C")
	for _, args := range [][]string{{"-latency", "1s±2s"}, {"-latency", "soon"}, {"-rpm", "-1"}, {"-enforce-period", "0s"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}
