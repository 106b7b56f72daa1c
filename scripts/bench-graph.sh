#!/usr/bin/env bash
# bench-graph.sh DOCS_DIR [QUESTION]
#
# Measures gds graph on a folder of documents with a fresh gds home: the
# crawl, `gds graph build` (time, calls, communities per level), one
# global question (`gds graph query --output-format json`: map calls,
# prompt tokens, wall time) against `gds ask --json` on the same index,
# and an unchanged rebuild. The provider is whatever the environment
# selects (offline by default; set GDS_AI_PROVIDER=openai and
# OPENAI_API_KEY for a model). Prints one Markdown table row per step.
set -euo pipefail
docs=${1:?usage: bench-graph.sh DOCS_DIR [QUESTION]}
question=${2:-"この文書群の主なテーマは何ですか"}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && go build -o "$work/gds" ./cmd/gds)
export GDS_HOME="$work/home" DATABASE_URL= SUPABASE_DB_URL=
: "${GDS_AI_PROVIDER:=offline}"
export GDS_AI_PROVIDER

secs() { python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.2f}')" "$1"; }
now() { python3 -c "import time; print(time.time())"; }

t=$(now); "$work/gds" crawl --source "local:$docs" >/dev/null 2>&1; crawl=$(secs "$t")
t=$(now); "$work/gds" graph build --json >"$work/build.json" 2>/dev/null; build=$(secs "$t")
t=$(now); "$work/gds" graph build --json >"$work/rebuild.json" 2>/dev/null; rebuild=$(secs "$t")
t=$(now); "$work/gds" graph query --output-format json "$question" >"$work/global.json"; global=$(secs "$t")
t=$(now); "$work/gds" graph query --mode local --output-format json "$question" >"$work/local.json"; local=$(secs "$t")
t=$(now); "$work/gds" graph query --mode drift --output-format json "$question" >"$work/drift.json"; drift=$(secs "$t")
t=$(now); "$work/gds" ask --json "$question" >"$work/ask.json"; ask=$(secs "$t")

python3 - "$work" "$crawl" "$build" "$rebuild" "$global" "$local" "$drift" "$ask" <<'PY'
import json, sys
w, crawl, build, rebuild, tg, tl, td, ta = sys.argv[1:]
b = json.load(open(f"{w}/build.json")); r = json.load(open(f"{w}/rebuild.json"))
levels = ", ".join(f"L{k}: {v}" for k, v in sorted(b["communities_per_level"].items(), key=lambda kv: int(kv[0])))
print(f"provider {b['provider']}; crawl {crawl} s")
print("| step | wall s | model calls | detail |")
print("|---|---:|---:|---|")
print(f"| graph build | {build} | {b['extract_calls']} extract + {b['report_calls']} report (+{b['embed_calls']} embed) | "
      f"{b['chunks']} chunks, {b['entities']} entities, {b['relationships']} relationships, {b['communities']} communities ({levels}) |")
print(f"| graph build, unchanged | {rebuild} | {r['extract_calls']} extract + {r['report_calls']} report | {r['reports_reused']} reports reused |")
for name, t in (("global", tg), ("local", tl), ("drift", td)):
    q = json.load(open(f"{w}/{name}.json")); c = q["calls"]
    calls = c["map"] + c["drift"] + c["answer"]
    print(f"| graph query --mode {name} | {t} | {calls} (map {c['map']}, drift {c['drift']}, answer {c['answer']}) | "
          f"~{c['prompt_tokens']} prompt tokens, {q.get('batches', 0)} batches, {len(q['references']['reports'])} reports, "
          f"{len(q['references']['documents'])} documents cited |")
a = json.load(open(f"{w}/ask.json"))
print(f"| ask (baseline) | {ta} | 1 answer | {len(a['sources'])} passages |")
PY
