// Kept to syntax and built-ins every Node.js since 14 runs: this is what tells a user their Node is
// too old, so it must not be the thing that crashes on it.

/**
 * The one line `npm start` prints on a Node.js older than package.json's engines.node, or
 * undefined when this one will do.
 * @param {string} range engines.node, in the one form used here: ">=major.minor.patch"
 * @param {string} version process.version, e.g. "v18.20.4"
 * @returns {string | undefined}
 */
export function nodeVersionProblem(range, version) {
  const required = /^>=\s*v?(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (!required) throw new Error(`engines.node must read ">=major.minor.patch", not "${range}"`);
  const current = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  const want = required.slice(1).map(Number);
  const have = current ? current.slice(1).map(Number) : [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    if (have[i] > want[i]) return undefined;
    if (have[i] < want[i]) {
      const [major, minor, patch] = want;
      const name = patch === 0 ? `${major}.${minor}` : `${major}.${minor}.${patch}`;
      return `Buddy needs Node.js ${name} or newer; this is ${version}.`;
    }
  }
  return undefined;
}
