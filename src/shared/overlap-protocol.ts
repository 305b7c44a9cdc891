import type Sodium from "libsodium-wrappers-sumo";
import type { OverlapRun } from "./overlap";

/**
 * CONTRACT §11: two-party Diffie–Hellman private set intersection on ristretto255 (RFC 9496).
 * Each side blinds `H(domain)` with a scalar only it holds; blinding commutes (`a·b·P = b·a·P`), so
 * doubly blinded points match exactly when the domains do, and nothing else can be read from them.
 * The protocol and its threat model are in docs/decisions.md, "Account overlap".
 *
 * The caller hands in a ready libsodium (`await sodium.ready`), so the browser loads it only on the
 * screens that run the protocol, and a server of the customer's own uses the same code.
 */
export type OverlapSodium = typeof Sodium;

/**
 * The BLAKE2b key of the hash to the group: public, it separates this use of the hash from every
 * other, so `H(domain)` here equals no digest any other system publishes.
 */
const HASH_KEY = "buddy.overlap.v1:domain-to-ristretto255";

const hashKeys = new WeakMap<OverlapSodium, Uint8Array>();
function hashKey(sodium: OverlapSodium): Uint8Array {
  let key = hashKeys.get(sodium);
  if (!key) {
    key = sodium.crypto_generichash(sodium.crypto_generichash_KEYBYTES, HASH_KEY, null);
    hashKeys.set(sodium, key);
  }
  return key;
}

/** `H(domain)`: keyed BLAKE2b-512, then RFC 9496's hash to ristretto255 (Elligator, twice). */
export function hashToGroup(sodium: OverlapSodium, domain: string): Uint8Array {
  const key = hashKey(sodium);
  const digest = sodium.crypto_generichash(sodium.crypto_core_ristretto255_HASHBYTES, domain, key);
  return sodium.crypto_core_ristretto255_from_hash(digest);
}

export function encodePoint(sodium: OverlapSodium, point: Uint8Array): string {
  return sodium.to_base64(point, sodium.base64_variants.URLSAFE_NO_PADDING);
}

export function decodePoint(sodium: OverlapSodium, encoded: string): Uint8Array {
  return sodium.from_base64(encoded, sodium.base64_variants.URLSAFE_NO_PADDING);
}

/** A fresh secret scalar, drawn for one run (why: docs/decisions.md). */
export function newScalar(sodium: OverlapSodium): string {
  return encodePoint(sodium, sodium.crypto_core_ristretto255_scalar_random());
}

export class OverlapProtocolError extends Error {}

/** `k·P` for each received point; a point that is not a valid ristretto255 encoding ends the run. */
export function blindPoints(sodium: OverlapSodium, scalar: string, points: readonly string[]): string[] {
  const k = decodePoint(sodium, scalar);
  return points.map((encoded) => {
    const point = decodePoint(sodium, encoded);
    if (!sodium.crypto_core_ristretto255_is_valid_point(point)) {
      throw new OverlapProtocolError("The other side sent something that is not a point");
    }
    return encodePoint(sodium, sodium.crypto_scalarmult_ristretto255(k, point));
  });
}

/** `k·H(d)` for each domain, in the order given. */
export function blindDomains(sodium: OverlapSodium, scalar: string, domains: readonly string[]): string[] {
  const k = decodePoint(sodium, scalar);
  return domains.map((domain) =>
    encodePoint(sodium, sodium.crypto_scalarmult_ristretto255(k, hashToGroup(sodium, domain))),
  );
}

/** A uniformly random permutation (Fisher–Yates over libsodium's CSPRNG). */
export function shuffle<T>(sodium: OverlapSodium, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = sodium.randombytes_uniform(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Positions in `mine` of the points also in `theirs`. */
export function matchingPositions(mine: readonly string[], theirs: readonly string[]): number[] {
  const other = new Set(theirs);
  const positions: number[] = [];
  mine.forEach((value, index) => {
    if (other.has(value)) positions.push(index);
  });
  return positions;
}

type StepLevel = NonNullable<OverlapRun["level"]>;

/** Step 1, the starting side A: a fresh `a`, its domains in a random order, and `a·H(x)`. */
export function startRun(sodium: OverlapSodium, domains: readonly string[]) {
  const scalar = newScalar(sodium);
  const order = shuffle(sodium, domains);
  return { scalar, order, points: blindDomains(sodium, scalar, order) };
}

/**
 * Step 2, the answering side B: `b·(a·H(x))` (shuffled in Counts mode, so A cannot tell which of
 * its accounts matched) and `b·H(y)` for its own domains in a random order. `b` is not kept: the
 * server compares the doubly blinded points of both sides, and B's step is done.
 */
export function answerRun(
  sodium: OverlapSodium,
  domains: readonly string[],
  received: readonly string[],
  level: StepLevel,
) {
  const scalar = newScalar(sodium);
  const doubled = blindPoints(sodium, scalar, received);
  const order = shuffle(sodium, domains);
  return {
    order,
    doubled: level === "counts" ? shuffle(sodium, doubled) : doubled,
    points: blindDomains(sodium, scalar, order),
  };
}

/**
 * Step 3, A again: `a·(b·H(y))`, compared with what B returned. In Overlaps mode the positions map
 * to A's own domains (its order of step 1); in Counts mode both lists are shuffled and only the
 * count is left to learn.
 */
export function completeRun(
  sodium: OverlapSodium,
  scalar: string,
  run: { doubled: readonly string[]; partnerPoints: readonly string[] },
  level: StepLevel,
) {
  const doubled = blindPoints(sodium, scalar, run.partnerPoints);
  const positions = matchingPositions(run.doubled, doubled);
  return {
    doubled: level === "counts" ? shuffle(sodium, doubled) : doubled,
    count: positions.length,
    positions: level === "overlaps" ? positions : null,
  };
}

/**
 * What the relay works out from both doubly blinded lists: the count, and in Overlaps mode the
 * positions of each side's shared accounts in the points that side sent.
 */
export function runResult(
  doubledByResponder: readonly string[],
  doubledByStarter: readonly string[],
  level: StepLevel,
) {
  const starter = matchingPositions(doubledByResponder, doubledByStarter);
  if (level === "counts") return { count: starter.length, starter: null, responder: null };
  return {
    count: starter.length,
    starter,
    responder: matchingPositions(doubledByStarter, doubledByResponder),
  };
}
