package storetest

import (
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testFolding checks accent and width folding: text is
// stored and queried through the same tokenizer, so an accented name is
// found unaccented and the other way round, half-width katakana and
// full-width Latin letters match their usual forms, in file keyword search
// (name, keywords, summary, text) and chunk full-text search alike, while
// Japanese voiced marks still tell words apart.
func testFolding(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	temur := file("temur", "Temür notes.txt", "Tamerlane, Temür, was born near Kesh.")
	temur.Keywords = []string{"Samarqand"}
	upsert(t, ctx, s, temur, chunk(0, 0, "Tamerlane, Temür, was born near Kesh.", 1))
	plain := file("plain", "timeline.txt", "Temur and the Strasse of ｶﾀｶﾅ")
	plain.Summary = "Café crème in Łódź"
	upsert(t, ctx, s, plain, chunk(0, 0, "Temur and the Strasse of ｶﾀｶﾅ", 1))
	upsert(t, ctx, s, file("gas", "gas.txt", "ガス料金の請求"))

	for _, term := range []string{"temur", "Temür", "TEMÜR", "ｔｅｍｕｒ", "Temu\u0308r"} {
		wantKeyword(t, ctx, s, anyOf(term), "plain", "temur")
		wantChunkText(t, ctx, s, anyOf(term), chunkKey{"plain", 0}, chunkKey{"temur", 0})
	}
	wantKeyword(t, ctx, s, anyOf("temür notes"), "temur") // the name
	wantKeyword(t, ctx, s, anyOf("Samarqand"), "temur")   // the keywords
	wantKeyword(t, ctx, s, anyOf("cafe creme"), "plain")  // the summary
	wantKeyword(t, ctx, s, anyOf("lodz"), "plain")        // ł has no decomposition
	wantKeyword(t, ctx, s, anyOf("Straße"), "plain")      // ß = ss
	wantKeyword(t, ctx, s, anyOf("カタカナ"), "plain")        // half-width katakana
	wantChunkText(t, ctx, s, anyOf("カタカナ"), chunkKey{"plain", 0})
	wantKeyword(t, ctx, s, anyOf("ガス"), "gas")
	wantKeyword(t, ctx, s, anyOf("カス")) // a voiced mark is not an accent
}

// testStemming checks English stemming in the shared tokenizer: a search
// for "running" finds a file saying "runs", "city" one saying "cities", as
// words and as phrases ("connected cities" matches "connecting city"), in
// file keyword search and chunk full-text search alike; words with another
// stem ("runner") and Japanese text are matched as before.
func testStemming(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	text := "She runs every morning, connecting city to city."
	upsert(t, ctx, s, file("runs", "notes.txt", text), chunk(0, 0, text, 1))
	upsert(t, ctx, s, file("runner", "runner.txt", "The runner waited."))
	upsert(t, ctx, s, file("ja", "会議.txt", "会議の議事録を共有しました"))

	for _, term := range []string{"running", "runs", "run", "Runs"} {
		wantKeyword(t, ctx, s, anyOf(term), "runs")
		wantChunkText(t, ctx, s, anyOf(term), chunkKey{"runs", 0})
	}
	wantKeyword(t, ctx, s, anyOf("cities"), "runs")
	wantKeyword(t, ctx, s, all("connected cities"), "runs") // a phrase of stems
	wantKeyword(t, ctx, s, anyOf("runners"), "runner")
	wantKeyword(t, ctx, s, anyOf("議事録"), "ja")
	wantKeyword(t, ctx, s, anyOf("共有しました"), "ja")
}

// testEdgeTokens checks the edge characters of the shared tokenizer: a
// keyword that crosses a boundary between CJK characters and a number or
// Latin word (第45回, 45回, SARSコロナ) is found where the CJK run goes on
// past the keyword (…の第45回衆議院…), in file keyword search and chunk
// full-text search alike; keywords that do not cross a boundary are found as
// before, and a keyword with another number is not found.
func testEdgeTokens(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	text := "2009年の第45回衆議院議員総選挙では新型SARSコロナの話題もあった"
	upsert(t, ctx, s, file("elect", "選挙.txt", text), chunk(0, 0, text, 1))
	upsert(t, ctx, s, file("other", "別件.txt", "第46回大会の記録"))

	for _, term := range []string{"第45回", "第45回衆議院議員総選挙", "45回衆議院", "年の第45", "SARSコロナ", "型SARS", "2009年"} {
		wantKeyword(t, ctx, s, all(term), "elect")
		wantChunkText(t, ctx, s, all(term), chunkKey{"elect", 0})
	}
	for _, term := range []string{"衆議院", "議員総選挙", "コロナ"} {
		wantKeyword(t, ctx, s, all(term), "elect")
	}
	wantKeyword(t, ctx, s, all("第46回"), "other")
	wantKeyword(t, ctx, s, all("第47回"))
	wantKeyword(t, ctx, s, all("45回大会"))
}
