package store

import "sort"

// FusionK is the rank constant production passes to Fuse: a key at rank r
// (counted from 1) of a ranking of weight w gets w/(FusionK + r). 10 rather than the usual
// 60 lets the first places of a ranking count much more than its tail;
// it was chosen on the dev splits of the retrieval benchmarks
// (docs/BENCHMARKS.md) for the search loop's narrowing and for chunk
// retrieval alike.
const FusionK = 10

// Order is one ranking to fuse: keys best first, and its weight.
type Order[K comparable] struct {
	Keys   []K
	Weight float64
}

// Fused is a key with its fused score and the best rank (from 1) it has
// in any of the rankings.
type Fused[K comparable] struct {
	Key   K
	Score float64
	Best  int
}

// Fuse merges weighted rankings by reciprocal rank fusion:
//
//	score(key) = Σ over the rankings r holding key of w_r/(k + rank_r(key))
//
// where k is the rank constant (FusionK in production; the offline
// replay tunes it), ranks are counted from 1 and only a key's first
// occurrence in a ranking counts (a repeat neither scores nor takes a
// rank). A key's
// score is summed in the order of the rankings. It returns every key of
// every ranking (one of weight 0 included), by descending score; ties
// keep the order in which the keys first appear: the first ranking's in
// its order, then the keys the second adds, and so on. Pure.
func Fuse[K comparable](k float64, orders ...Order[K]) []Fused[K] {
	at := map[K]int{} // index in out
	var out []Fused[K]
	for _, o := range orders {
		seen := make(map[K]bool, len(o.Keys))
		rank := 0
		for _, key := range o.Keys {
			if seen[key] {
				continue
			}
			seen[key] = true
			rank++
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				out = append(out, Fused[K]{Key: key, Best: rank})
			}
			out[i].Score += o.Weight / (k + float64(rank))
			out[i].Best = min(out[i].Best, rank)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
