package crawl

import (
	"sort"
	"time"
)

// watermark tracks which listed files are finished and computes how far the
// sync checkpoint may advance: to the largest modifiedTime m such that every
// listed file with modifiedTime <= m is finished (committed, unchanged or
// skipped for good). A failed file holds the checkpoint back, so the next
// incremental run (which lists files modified after the checkpoint) retries it.
type watermark struct {
	times []time.Time // sorted ascending
	done  []bool
	next  int // first index not known to be finished
}

// newWatermark sorts entries by modification time (in place) and returns
// a tracker over them.
func newWatermark(entries []Entry) *watermark {
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].ModifiedAt.Before(entries[j].ModifiedAt) })
	w := &watermark{times: make([]time.Time, len(entries)), done: make([]bool, len(entries))}
	for i, e := range entries {
		w.times[i] = e.ModifiedAt
	}
	return w
}

// finish marks entry i finished and reports the new checkpoint and whether
// it moved.
func (w *watermark) finish(i int) (time.Time, bool) {
	w.done[i] = true
	before := w.value()
	for w.next < len(w.done) && w.done[w.next] {
		w.next++
	}
	after := w.value()
	return after, !after.Equal(before)
}

// value is the current checkpoint (zero when nothing can be claimed).
func (w *watermark) value() time.Time {
	k := w.next // entries [0, k) are finished
	if k == 0 {
		return time.Time{}
	}
	if k < len(w.times) {
		// Files sharing the time of the first unfinished one must not be
		// covered: step back to the last strictly earlier time.
		for k > 0 && w.times[k-1].Equal(w.times[w.next]) {
			k--
		}
		if k == 0 {
			return time.Time{}
		}
	}
	return w.times[k-1]
}
