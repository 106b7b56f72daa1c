package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/graph/community"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/gds-cli/gds/internal/store"
)

// Community detection defaults (GraphRAG's max_cluster_size and seed).
const (
	MaxClusterSize = 10
	Seed           = 0xDEADBEEF
	// maxLevels bounds the recursion (a community that Louvain cannot split
	// stops earlier).
	maxLevels = 8
)

// Communities groups the entities into a hierarchy: level 0 is gonum's
// Louvain over the whole graph (its coarsest partition); every community
// larger than maxSize is split again by Louvain over its own subgraph into
// children one level down, until no community is larger or Louvain finds
// no split. Only ReducedGraph.Communities is read, never Expanded (whose
// typed-nil bottom level would never end a `!= nil` loop). Entities without relationships and single-entity communities
// are left out (they have nothing to summarise). Relationship weights are
// the edge weights. The result is deterministic for a seed: nodes are
// numbered in ID order and each run gets its own source seeded from seed
// and the community's members. Communities are numbered "0", "1", … in
// order of level, then size (largest first), then signature.
func Communities(entities []store.GraphEntity, rels []store.GraphRelationship, maxSize int, seed uint64) []store.GraphCommunity {
	if maxSize <= 0 {
		maxSize = MaxClusterSize
	}
	ids := make([]string, 0, len(entities))
	for _, e := range entities {
		ids = append(ids, e.ID)
	}
	slices.Sort(ids)
	index := make(map[string]int64, len(ids))
	for i, id := range ids {
		index[id] = int64(i)
	}
	type edge struct {
		a, b int64
		w    float64
		id   string
	}
	var edges []edge
	for _, r := range rels {
		a, okA := index[r.Source]
		b, okB := index[r.Target]
		if !okA || !okB || a == b {
			continue
		}
		w := r.Weight
		if w <= 0 {
			w = 1
		}
		edges = append(edges, edge{a, b, w, r.ID})
	}
	chunksOf := make(map[string][]string, len(entities))
	descOf := make(map[string]string, len(entities)+len(rels))
	for _, e := range entities {
		chunksOf[e.ID] = e.ChunkIDs
		descOf[e.ID] = e.Name + "\x00" + e.Description
	}
	for _, r := range rels {
		descOf[r.ID] = r.Description
	}

	type raw struct {
		level   int
		parent  int // index into out, -1 at level 0
		members []int64
	}
	var out []raw
	// split runs Louvain on the subgraph of members and returns its
	// partition (members sorted, communities of size >= 2).
	split := func(members []int64) [][]int64 {
		in := make(map[int64]bool, len(members))
		g := simple.NewWeightedUndirectedGraph(0, 0)
		for _, m := range members {
			in[m] = true
			g.AddNode(simple.Node(m))
		}
		for _, e := range edges {
			if in[e.a] && in[e.b] {
				if old := g.WeightedEdge(e.a, e.b); old != nil {
					g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(e.a), simple.Node(e.b), old.Weight()+e.w))
					continue
				}
				g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(e.a), simple.Node(e.b), e.w))
			}
		}
		h := seed
		for _, m := range members {
			h = h*1099511628211 ^ uint64(m)
		}
		rg := community.Modularize(g, 1, rand.NewPCG(seed, h))
		var parts [][]int64
		for _, c := range rg.Communities() {
			if len(c) < 2 {
				continue
			}
			p := make([]int64, len(c))
			for i, n := range c {
				p[i] = n.ID()
			}
			slices.Sort(p)
			parts = append(parts, p)
		}
		sort.Slice(parts, func(i, j int) bool {
			if len(parts[i]) != len(parts[j]) {
				return len(parts[i]) > len(parts[j])
			}
			return parts[i][0] < parts[j][0]
		})
		return parts
	}
	var connected []int64
	seen := map[int64]bool{}
	for _, e := range edges {
		for _, n := range []int64{e.a, e.b} {
			if !seen[n] {
				seen[n] = true
				connected = append(connected, n)
			}
		}
	}
	slices.Sort(connected)
	var recurse func(members []int64, level, parent int)
	recurse = func(members []int64, level, parent int) {
		parts := split(members)
		if parent >= 0 && len(parts) == 1 && len(parts[0]) == len(members) {
			return // Louvain found no split
		}
		for _, p := range parts {
			out = append(out, raw{level: level, parent: parent, members: p})
			if len(p) > maxSize && level+1 < maxLevels {
				recurse(p, level+1, len(out)-1)
			}
		}
	}
	if len(connected) > 0 {
		recurse(connected, 0, -1)
	}

	comms := make([]store.GraphCommunity, len(out))
	for i, r := range out {
		c := store.GraphCommunity{Level: r.level}
		in := map[int64]bool{}
		for _, m := range r.members {
			in[m] = true
			c.EntityIDs = append(c.EntityIDs, ids[m])
		}
		chunks := map[string]bool{}
		for _, id := range c.EntityIDs {
			for _, ch := range chunksOf[id] {
				chunks[ch] = true
			}
		}
		c.Weight = len(chunks)
		for _, e := range edges {
			if in[e.a] && in[e.b] && !slices.Contains(c.RelationshipIDs, e.id) {
				c.RelationshipIDs = append(c.RelationshipIDs, e.id)
			}
		}
		slices.Sort(c.RelationshipIDs)
		// The signature covers the members and their descriptions: a
		// report is rewritten when any of them changes.
		parts := []string{fmt.Sprint(r.level)}
		for _, id := range c.EntityIDs {
			parts = append(parts, id, descOf[id])
		}
		for _, id := range c.RelationshipIDs {
			parts = append(parts, id, descOf[id])
		}
		c.Signature = shortHash(parts...)
		comms[i] = c
	}
	// Number them: level, size (largest first), signature.
	order := make([]int, len(comms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ca, cb := comms[order[a]], comms[order[b]]
		if ca.Level != cb.Level {
			return ca.Level < cb.Level
		}
		if len(ca.EntityIDs) != len(cb.EntityIDs) {
			return len(ca.EntityIDs) > len(cb.EntityIDs)
		}
		return ca.Signature < cb.Signature
	})
	newID := make([]string, len(comms))
	for rank, i := range order {
		newID[i] = fmt.Sprint(rank)
	}
	result := make([]store.GraphCommunity, 0, len(comms))
	for _, i := range order {
		c := comms[i]
		c.ID = newID[i]
		if out[i].parent >= 0 {
			c.Parent = newID[out[i].parent]
		}
		result = append(result, c)
	}
	return result
}
