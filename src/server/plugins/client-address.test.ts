import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { fastifyTrustProxy } from "./client-address";

// Fastify itself with the option TRUST_PROXY becomes: what it makes of the forwarding headers.
const apps: Array<ReturnType<typeof Fastify>> = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function seenBy(trustProxy: string) {
  const app = Fastify({ trustProxy: fastifyTrustProxy(loadConfig({ TRUST_PROXY: trustProxy }).trustProxy) });
  apps.push(app);
  app.get("/", (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
  await app.ready();
  return async (remoteAddress: string, headers: Record<string, string> = {}) =>
    (
      await app.inject({ url: "/", remoteAddress, headers: { host: "origin.internal", ...headers } })
    ).json() as { ip: string; protocol: string; host: string };
}

const forwarded = {
  "x-forwarded-proto": "https",
  "x-forwarded-host": "buddy.example",
};

describe("TRUST_PROXY as Fastify's trustProxy", () => {
  it("true: the entry the one proxy appended, never one the client wrote before it", async () => {
    const see = await seenBy("true");
    // The client sent "X-Forwarded-For: 198.51.100.7"; the balancer appended the address it heard from.
    expect(await see("10.0.0.2", { "x-forwarded-for": "198.51.100.7, 203.0.113.5", ...forwarded })).toEqual({
      ip: "203.0.113.5",
      protocol: "https",
      host: "buddy.example",
    });
    // No header: the connection's own address.
    expect((await see("203.0.113.9")).ip).toBe("203.0.113.9");
  });

  it("a number n: the entry n hops from the socket, or the left-most of a shorter header", async () => {
    const see = await seenBy("2");
    const chain = "198.51.100.7, 203.0.113.5, 10.0.0.3";
    expect((await see("10.0.0.2", { "x-forwarded-for": chain })).ip).toBe("203.0.113.5");
    expect((await see("10.0.0.2", { "x-forwarded-for": "203.0.113.5" })).ip).toBe("203.0.113.5");
  });

  it("a list: the right-most entry that is not a trusted proxy; forwarded proto and host only from one", async () => {
    const see = await seenBy("10.0.0.0/8, fd00::/8");
    const chain = "198.51.100.7, 203.0.113.5, 10.9.9.9, fd00::1";
    expect(await see("10.1.2.3", { "x-forwarded-for": chain, ...forwarded })).toEqual({
      ip: "203.0.113.5",
      protocol: "https",
      host: "buddy.example",
    });
    expect((await see("fd00::5", { "x-forwarded-for": chain })).ip).toBe("203.0.113.5");
    // An IPv4 proxy seen on an IPv6 socket (::ffff:10.1.2.3) is the same proxy.
    expect((await see("::ffff:10.1.2.3", { "x-forwarded-for": chain })).ip).toBe("203.0.113.5");
    // A client reaching the server directly is no proxy: its headers say nothing.
    expect(await see("198.51.100.200", { "x-forwarded-for": "10.0.0.1", ...forwarded })).toEqual({
      ip: "198.51.100.200",
      protocol: "http",
      host: "origin.internal",
    });
  });

  it("off: the connection's address, whatever the headers say", async () => {
    const see = await seenBy("false");
    expect(await see("203.0.113.5", { "x-forwarded-for": "198.51.100.7", ...forwarded })).toEqual({
      ip: "203.0.113.5",
      protocol: "http",
      host: "origin.internal",
    });
  });
});
