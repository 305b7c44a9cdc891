// Account overlap from your own server (docs/overlap-api.md). Your lists never leave this machine:
// Buddy gets points blinded with a scalar drawn here for each run, never a domain or a hash of one.
// Node 20+, `npm install libsodium-wrappers-sumo tldts`; BUDDY_URL and BUDDY_API_KEY in the environment.
import { readFile, rename, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import sodium from "libsodium-wrappers-sumo";
import { parse } from "tldts";

const POPULATIONS = ["customers", "prospects"];
const SMALLEST_SHOWN = 5;

// Domains: the rules of Buddy's browser (src/shared/overlap-domains.ts), or the same account never
// matches. `https://www.Acme.co.uk/x`, `ceo@acme.co.uk` and `ACME.CO.UK` are all `acme.co.uk`.
export function registrableDomain(input) {
  let value = input.trim().replace(/^mailto:/i, "");
  const at = value.lastIndexOf("@");
  if (at >= 0 && !value.includes("/")) value = value.slice(at + 1);
  if (!value.includes(".")) return null;
  let hostname;
  try {
    // The URL parser lower-cases and writes IDNs as punycode (bücher.de → xn--bcher-kva.de).
    hostname = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname;
  } catch {
    return null;
  }
  const parsed = parse(hostname, { allowPrivateDomains: true });
  if (!parsed.isIcann && !parsed.isPrivate) return null;
  return parsed.domain && parsed.domain.length <= 253 ? parsed.domain : null;
}

/** Every domain in a CSV (any column, header cells ignored), normalised and deduplicated. */
export function parseDomainList(text) {
  const domains = new Set();
  let skipped = 0;
  for (const token of text.split(/[\s,;|"'`<>()[\]{}]+/)) {
    if (!token) continue;
    const domain = registrableDomain(token);
    if (domain) domains.add(domain);
    else if (/[.@]/.test(token) && !/^[\d.]+$/.test(token.replace(/[$€£%]/g, ""))) skipped += 1;
  }
  return { domains: [...domains].sort(), skipped };
}

// The protocol (src/shared/overlap-protocol.ts): H(d) is ristretto255's hash to the group of a
// keyed BLAKE2b-512 of the domain; a point travels as 32 bytes in unpadded base64url.
const HASH_KEY = "buddy.overlap.v1:domain-to-ristretto255";
let hashKey;

function hashToGroup(domain) {
  hashKey ??= sodium.crypto_generichash(sodium.crypto_generichash_KEYBYTES, HASH_KEY, null);
  const digest = sodium.crypto_generichash(sodium.crypto_core_ristretto255_HASHBYTES, domain, hashKey);
  return sodium.crypto_core_ristretto255_from_hash(digest);
}
const encode = (bytes) => sodium.to_base64(bytes, sodium.base64_variants.URLSAFE_NO_PADDING);
const decode = (text) => sodium.from_base64(text, sodium.base64_variants.URLSAFE_NO_PADDING);
const newScalar = () => encode(sodium.crypto_core_ristretto255_scalar_random());

function blindDomains(scalar, domains) {
  const k = decode(scalar);
  return domains.map((domain) => encode(sodium.crypto_scalarmult_ristretto255(k, hashToGroup(domain))));
}

function blindPoints(scalar, points) {
  const k = decode(scalar);
  return points.map((text) => {
    const point = decode(text);
    if (!sodium.crypto_core_ristretto255_is_valid_point(point)) throw new Error(`Not a point: ${text}`);
    return encode(sodium.crypto_scalarmult_ristretto255(k, point));
  });
}

/** A uniformly random order (Fisher–Yates over libsodium's CSPRNG). */
function shuffle(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = sodium.randombytes_uniform(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Buddy's API with your key: `call(method, path, body)` answers the JSON, or throws its message. */
export function buddyApi({ url, apiKey }) {
  return async function call(method, path, body) {
    const response = await fetch(new URL(path, url), {
      method,
      headers: { "x-api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw Object.assign(new Error(`${method} ${path}: ${response.status} ${answer.message ?? ""}`), {
        status: response.status,
        answer,
      });
    }
    return answer;
  };
}

/**
 * What stays here between steps, per run: the scalar of a run you started (until it completes) and
 * the random order you sent your domains in (to read your shared accounts in Overlaps mode).
 * Keep the file private: with a run's scalar and its points, guesses could be tested against a list.
 */
export async function openState(file) {
  let data = { runs: {} };
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  return {
    runs: data.runs,
    async save() {
      await writeFile(`${file}.tmp`, JSON.stringify(data), { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    },
  };
}

/** Tells Buddy you hold a list, and its size: the domains themselves are never sent. */
export async function declareList(call, population, domains) {
  return call("PUT", `/api/overlap/populations/${population}`, { domainCount: domains.length });
}

/** Step 1: a fresh scalar `a` for this run, your domains in a random order, `a·H(x)` sent. */
export async function startRun(call, state, { partnerId, population, partnerPopulation, domains }) {
  await sodium.ready;
  const scalar = newScalar();
  const order = shuffle(domains);
  const points = blindDomains(scalar, order);
  const run = await call("POST", "/api/overlap/runs", { partnerId, population, partnerPopulation, points });
  state.runs[run.id] = { scalar, order };
  await state.save();
  return run;
}

/** Steps 2 and 3 for every run waiting for you; `lists` holds your domains by population. */
export async function takeTurns(call, state, lists) {
  await sodium.ready;
  const { runs } = await call("GET", "/api/overlap/runs?awaiting=true");
  const handled = [];
  for (const { id } of runs) {
    const work = await call("GET", `/api/overlap/runs/${id}`);
    const shuffled = (points) => (work.stepLevel === "counts" ? shuffle(points) : points);
    if (!work.started && work.status === "waiting") {
      // Step 2: b·(a·H(x)) for the partner's points and b·H(y) for yours; b is never stored.
      const domains = lists[work.population];
      if (!domains) throw new Error(`Run ${id} compares your ${work.population}: pass that list`);
      const scalar = newScalar();
      const order = shuffle(domains);
      const doubled = shuffled(blindPoints(scalar, work.points));
      const points = blindDomains(scalar, order);
      state.runs[id] = { scalar: null, order };
      await state.save();
      const body = { doubled, points, level: work.stepLevel };
      handled.push(await call("POST", `/api/overlap/runs/${id}/answer`, body));
    } else if (work.started && work.status === "answered") {
      // Step 3: a·(b·H(y)). You can count the overlap yourself, and check Buddy's count against it.
      const stored = state.runs[id];
      if (!stored?.scalar) throw new Error(`Run ${id} was not started with this state file`);
      const doubled = blindPoints(stored.scalar, work.partnerPoints);
      const mine = new Set(doubled);
      const count = work.doubled.filter((point) => mine.has(point)).length;
      const body = { doubled: shuffled(doubled), level: work.stepLevel };
      const run = await call("POST", `/api/overlap/runs/${id}/complete`, body);
      state.runs[id] = { scalar: null, order: stored.order };
      await state.save();
      if (run.count !== (count >= SMALLEST_SHOWN ? count : null)) {
        throw new Error(`Run ${id}: Buddy reports ${run.count}, the points here say otherwise`);
      }
      handled.push(run);
    }
  }
  return handled;
}

/** Completed runs, with your own shared accounts in Overlaps mode (read through your order). */
export async function results(call, state) {
  const { runs } = await call("GET", "/api/overlap/runs");
  return runs
    .filter((run) => run.status === "completed")
    .map((run) => {
      const order = state.runs[run.id]?.order;
      const shared = run.matches && order ? run.matches.map((i) => order[i]).sort() : null;
      return { ...run, shared };
    });
}

const USAGE = `Usage, with BUDDY_URL and BUDDY_API_KEY set:
  node overlap-client.mjs declare --customers customers.csv [--prospects prospects.csv]
  node overlap-client.mjs start <partnerId> <yourList> <theirList> --customers customers.csv
  node overlap-client.mjs poll --customers customers.csv [--prospects prospects.csv]
  node overlap-client.mjs results
  --state FILE  where runs are kept between steps (default overlap-state.json)`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      customers: { type: "string" },
      prospects: { type: "string" },
      state: { type: "string", default: "overlap-state.json" },
    },
  });
  const [command, ...rest] = positionals;
  if (!process.env.BUDDY_URL || !process.env.BUDDY_API_KEY) throw new Error(USAGE);
  const call = buddyApi({ url: process.env.BUDDY_URL, apiKey: process.env.BUDDY_API_KEY });
  const state = await openState(values.state);
  const lists = {};
  for (const population of POPULATIONS) {
    if (!values[population]) continue;
    const { domains, skipped } = parseDomainList(await readFile(values[population], "utf8"));
    if (skipped > 0) console.error(`${population}: ${skipped} entries are not domains, skipped`);
    lists[population] = domains;
  }
  let output;
  if (command === "declare") {
    if (Object.keys(lists).length === 0) throw new Error(USAGE);
    for (const [population, domains] of Object.entries(lists)) {
      output = await declareList(call, population, domains);
    }
  } else if (command === "start") {
    const [partnerId, population, partnerPopulation] = rest;
    const domains = lists[population];
    if (!partnerId || !domains || !POPULATIONS.includes(partnerPopulation)) throw new Error(USAGE);
    output = await startRun(call, state, { partnerId, population, partnerPopulation, domains });
  } else if (command === "poll") {
    output = await takeTurns(call, state, lists);
  } else if (command === "results") {
    output = await results(call, state);
  } else {
    throw new Error(USAGE);
  }
  console.log(JSON.stringify(output, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
