// A bare Fastify server answering the same kinds of responses as Buddy, as the run's yardstick.
import Fastify, { type FastifyReply } from "fastify";

const app = Fastify({ logger: false });
const body = process.env.BASELINE_JSON ?? "{}";
app.get("/json", async (_request, reply) => reply.type("application/json").send(body));
app.get("/redirect", async (_request, reply) =>
  reply.redirect("https://example.com/landing?bclickid=x", 302),
);
const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const sendGif = async (_request: unknown, reply: FastifyReply) => reply.type("image/gif").send(gif);
app.get("/gif", sendGif);
// The pixel's own paths too: both runs then send the same requests, made alike by the load generator.
app.get("/api/marketing/conversion/:clickId", sendGif);

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.stdout.write(`${address}\n`);
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
