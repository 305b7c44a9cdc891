/**
 * The session token and nothing else: the sign-in page and the API client need it without the
 * app's query cache or router (lib/session.ts adds those for the signed-in app).
 */

/** SPEC §3: the session token lives in localStorage under `token`. */
const TOKEN_KEY = "token";

const tokenListeners = new Set<() => void>();
const clearHooks: Array<() => void> = [];

function notifyTokenListeners() {
  for (const listener of tokenListeners) listener();
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token);
  notifyTokenListeners();
}

/** Runs `hook` whenever the session is cleared, before anyone is told (the app drops its cache). */
export function onSessionCleared(hook: () => void) {
  clearHooks.push(hook);
}

/** SPEC §4: sign-in, sign-out and a dead token all start from empty storage and an empty cache. */
export function clearSession() {
  localStorage.clear();
  for (const hook of clearHooks) hook();
  notifyTokenListeners();
}

export function subscribeToToken(listener: () => void) {
  tokenListeners.add(listener);
  // Another tab signing out clears the shared storage; follow it here too.
  window.addEventListener("storage", listener);
  return () => {
    tokenListeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}
