import { request as httpRequest } from "node:http";

/**
 * A POST whose JSON body arrives in two parts, the second when the test says: a request in flight
 * for as long as the test wants (shutdown must finish it, not cut it).
 */
export function slowPost(port: number, url: string, body: unknown) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    path: url,
    method: "POST",
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let received = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        received += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: received }));
    });
    request.on("error", reject);
  });
  request.write(text.slice(0, half));
  request.flushHeaders();
  return { answer, finish: () => request.end(text.slice(half)) };
}
