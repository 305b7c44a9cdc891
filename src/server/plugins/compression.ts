import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Below this a response fits in one packet either way, and compressing it costs more than it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Text, JSON and XML; anything else only where mime-db marks it compressible (JavaScript, SVG), so
 * images (the pixel's GIF, logos) are never recompressed. Unlike the plugin's default, no
 * octet-stream (often compressed already) and no event streams (each event must go out when sent).
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|[/+](?:json|xml)(?:;|$)/;

/**
 * On-the-fly compression of the API's answers, for clients that ask for it (br first: smaller at
 * the same cost; then gzip). The built web app is not compressed here: its files are compressed at
 * build time and sent as they are (plugins/web.ts).
 *
 * Routes that must stay as cheap as a bare server's (the tracking redirects and pixel) opt out with
 * `compress: false`: then no hook of this plugin runs for them. Other small answers are left as
 * they are by the threshold.
 *
 * BREACH: compression leaks, through the size of the answer, a secret that stands in a body beside
 * text an attacker chose, when the attacker can make a victim's browser send credentialed requests
 * and watch their sizes. Credentials here are a bearer token the web app adds itself (no cookie), so
 * a request made from another site carries none and its answer holds no secret of the victim's.
 * The answers that hand out a credential (a session token, a new API key) opt out all the same, as
 * they are small anyway: a change to how sessions are carried must not open that door.
 *
 * Must be registered before the routes: it attaches its hooks to each route as it is added.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD,
    encodings: ["br", "gzip", "identity"],
    customTypes: COMPRESSIBLE,
    // Request bodies are never compressed by our clients; decoding them would only add a way to
    // send a small body that expands past the body limit's intent.
    globalDecompression: false,
  });
}
