// Package ratelimit schedules model calls to the account's rate limits.
//
// OpenAI limits requests and tokens per minute per model (RPM, TPM; the
// embedding model separately) and says where a client stands on every
// response: x-ratelimit-limit-requests, x-ratelimit-remaining-requests,
// x-ratelimit-reset-requests (a duration such as "12ms", "1s", "6m0s") and
// the same for tokens. A 429 with code rate_limit_exceeded carries the
// wait (retry-after-ms, Retry-After); a 429 with code insufficient_quota is
// not a rate limit and is never retried.
//
// One Lane per model keeps the calls of every caller of a provider (crawl,
// graph build, eval, the server) within those limits:
//
//   - a pacer: two token buckets, one of requests and one of estimated
//     tokens, refilled at Headroom × the known limit per minute (learned
//     from the headers, capped by Config.MaxRPM / GDS_AI_MAX_RPM), so the
//     calls are spread evenly over the minute rather than sent in bursts
//     (OpenAI enforces its limits over periods shorter than a minute);
//   - a concurrency window (AIMD): it starts at Config.Initial and, while
//     the window is full and the headers show room, grows by one call per
//     success — or at once to what the known rate needs (rate × mean
//     latency × 1.25, Little's law) — until the first 429, then by
//     1/window per success; it halves on a 429, which also pauses the lane
//     for the server's wait and slows the pacer by 10 % (recovered by
//     0.2 % per success);
//   - insufficient_quota: every call fails at once (ErrQuota) for
//     Config.QuotaHold.
//
// A server that sends no rate-limit headers (Ollama, LM Studio, a local
// llama.cpp) keeps the initial window and, with MaxRPM, its pace.
//
// The decisions are pure (State.Admit, State.Finish, ParseHeaders) and
// table-tested; Lane adds only the clock, a FIFO of waiting calls and the
// wake-ups. Callers size their own fan-out by Lane.Concurrency, so calls
// queue briefly at the pacer instead of piling up.
package ratelimit
