package main

import "testing"

func TestRecall(t *testing.T) {
	for _, c := range []struct {
		lang, ref, got string
		hit, n         int
	}{
		{"en", "The cat saw the dog.", "the cat saw a dog", 4, 5},
		{"en", "Hello, World!", "hello world", 2, 2},
		{"en", "20,000 bottles", "2O,000 bottles", 2, 3},
		{"ja", "わたくしといふ現象は", "わたくしとい現象は", 9, 10},
		{"ja", "「序」 Hello", "序 hello", 6, 6},
		{"en", "words", "", 0, 1},
	} {
		if hit, n := recall(c.lang, c.ref, c.got); hit != c.hit || n != c.n {
			t.Errorf("recall(%s, %q, %q) = %d/%d, want %d/%d", c.lang, c.ref, c.got, hit, n, c.hit, c.n)
		}
	}
}
