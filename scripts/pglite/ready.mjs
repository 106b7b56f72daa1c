// ready.mjs HOST PORT TIMEOUT_MS
//
// Readiness probe for scripts/pglite.sh: connects with the Postgres wire
// protocol (v3, no TLS, trust auth as PGlite serves it), runs a real query
// that needs pgvector, prints its result and exits 0. It retries connection
// failures until TIMEOUT_MS has passed and exits 1 with the last error, at once
// when the server answers the query with an error. It has no
// dependencies, so it runs before and independently of any Postgres client.
import net from 'node:net';

const [host, portArg, timeoutArg] = process.argv.slice(2);
const port = Number(portArg);
const deadline = Date.now() + Number(timeoutArg || 60000);
// The probe creates the extension (as the gds store does on first use) so a
// server whose pgvector does not load fails here, not later in a test.
const QUERY = "CREATE EXTENSION IF NOT EXISTS vector; SELECT '[3,4]'::vector(2) <=> '[4,3]'::vector(2) AS d, " +
  "(SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS v";

function startup() {
  const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const b = Buffer.alloc(8);
  b.writeInt32BE(8 + params.length, 0);
  b.writeInt32BE(196608, 4);
  return Buffer.concat([b, params]);
}

function query(sql) {
  const body = Buffer.from(sql + '\0');
  const b = Buffer.alloc(5);
  b.write('Q', 0);
  b.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([b, body]);
}

function probe() {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    let sent = false;
    const row = [];
    const timer = setTimeout(() => { sock.destroy(); reject(new Error('probe timed out')); }, 10000);
    const done = (err, val) => {
      clearTimeout(timer);
      sock.end();
      err ? reject(err) : resolve(val);
    };
    sock.on('error', (e) => done(e));
    sock.on('connect', () => sock.write(startup()));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 5) {
        const type = String.fromCharCode(buf[0]);
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) {
          // PGlite answers a full server with plain text, not a message.
          if (buf.toString().startsWith('Too many')) return done(new Error(buf.toString().trim()));
          return;
        }
        const body = buf.subarray(5, 1 + len);
        buf = buf.subarray(1 + len);
        if (type === 'E') {
          const e = new Error('server error: ' + body.toString().replace(/\0/g, ' ').trim());
          e.fatal = true; // the server is up but the query fails: retrying will not help
          return done(e);
        }
        if (type === 'R' && body.readInt32BE(0) !== 0) return done(new Error('server asks for a password; PGlite should not'));
        if (type === 'D') {
          const n = body.readInt16BE(0);
          let off = 2;
          for (let i = 0; i < n; i++) {
            const l = body.readInt32BE(off); off += 4;
            row.push(l < 0 ? null : body.subarray(off, off + l).toString()); off += Math.max(l, 0);
          }
        }
        if (type === 'Z') {
          if (!sent) { sent = true; sock.write(query(QUERY)); }
          else return done(null, row);
        }
      }
    });
  });
}

let last;
while (Date.now() < deadline) {
  try {
    const [d, v] = await probe();
    if (Math.abs(Number(d) - 0.04) > 1e-6) throw new Error(`unexpected cosine distance ${d}`);
    console.log(`ready: pgvector ${v}`);
    process.exit(0);
  } catch (e) {
    last = e;
    if (e.fatal) break;
    await new Promise((r) => setTimeout(r, 250));
  }
}
console.error(`not ready: ${last && last.message}`);
process.exit(1);
