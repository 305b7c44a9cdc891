import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMember,
  authHeader,
  createOrganization,
  createTestApp,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";

let t: TestApp;
let admin: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrganization(t, "logoco");
});
afterAll(() => t.close());

function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = "----buddy-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const png = (width = 400, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: "#3366ff" } })
    .png()
    .toBuffer();

describe("organization profile", () => {
  it("returns the caller's organization", async () => {
    const response = await t.app.inject({ url: "/api/organization", headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: admin.organizationId,
      name: "logoco",
      website: "https://logoco.example",
      domain: "logoco.example",
      isPlatformUser: true,
      logoUrl: null,
    });
  });

  it("lets an admin update it, with the SPEC rules", async () => {
    const ok = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: admin.headers,
      payload: {
        name: "Logo Co",
        website: "https://www.LogoCo.example/",
        industry: "Software",
        size: 42,
        description: "We make logos.",
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      name: "Logo Co",
      domain: "logoco.example",
      industry: "Software",
      size: 42,
    });
    const noName = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: admin.headers,
      payload: { name: "", website: "logoco.example" },
    });
    expect(noName.statusCode).toBe(400);
    const badSize = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: admin.headers,
      payload: { name: "Logo Co", website: "logoco.example", size: 1.5 },
    });
    expect(badSize.statusCode).toBe(400);
    expect((await t.app.inject({ url: "/api/organization", headers: admin.headers })).json().size).toBe(42);
  });

  it("refuses a website another organization already has (409)", async () => {
    await createOrganization(t, "takenco");
    const response = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: admin.headers,
      payload: { name: "Logo Co", website: "takenco.example" },
    });
    expect(response.statusCode).toBe(409);
  });

  it("needs an organization: a user before onboarding gets 403", async () => {
    const { signUpVerified } = await import("../../testing/app");
    const { token } = await signUpVerified(t, "no-org@example.com");
    expect((await t.app.inject({ url: "/api/organization", headers: authHeader(token) })).statusCode).toBe(
      403,
    );
  });
});

describe("logo upload", () => {
  it("re-encodes a PNG to a square JPEG served at /api/logos/{domain}.jpg with caching headers", async () => {
    const upload = multipart("logo", "logo.png", "image/png", await png());
    const response = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...admin.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    const logoUrl = response.json().logoUrl as string;
    expect(logoUrl).toMatch(/^\/api\/logos\/logoco\.example\.jpg\?v=\d+$/);

    const image = await t.app.inject({ url: logoUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/jpeg");
    expect(image.headers["cache-control"]).toContain("immutable");
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();

    const bare = await t.app.inject({ url: "/api/logos/logoco.example.jpg" });
    expect(bare.headers["cache-control"]).toContain("max-age=300");
    const again = await t.app.inject({
      url: "/api/logos/logoco.example.jpg",
      headers: { "if-none-match": bare.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    // A second upload changes the version, so every cached <img> URL changes.
    const second = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...admin.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(second.json().logoUrl).not.toBe(logoUrl);
  });

  it("checks the real type by its bytes, not the declared one", async () => {
    const fake = multipart("logo", "logo.png", "image/png", Buffer.from("<svg onload=alert(1)></svg>"));
    const response = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...admin.headers, ...fake.headers },
      payload: fake.payload,
    });
    expect(response.statusCode).toBe(415);
    const gif = multipart("logo", "logo.jpg", "image/jpeg", Buffer.from("GIF89a\x01\x00\x01\x00"));
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/organization/logo",
          headers: { ...admin.headers, ...gif.headers },
          payload: gif.payload,
        })
      ).statusCode,
    ).toBe(415);
  });

  it("rejects a file over 2 MB with 413 and the SPEC message", async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const upload = multipart("logo", "big.png", "image/png", big);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...admin.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: "Logo must be less than 2MB" });
  });

  it("rejects a JSON body and a wrong field name", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: admin.headers,
      payload: { logo: "x" },
    });
    expect(json.statusCode).toBe(415);
    const wrong = multipart("file", "logo.png", "image/png", await png());
    const response = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...admin.headers, ...wrong.headers },
      payload: wrong.payload,
    });
    expect(response.statusCode).toBe(400);
  });

  it("answers 404 for a domain without a logo", async () => {
    expect((await t.app.inject({ url: "/api/logos/nobody.example.jpg" })).statusCode).toBe(404);
    expect((await t.app.inject({ url: "/api/logos/logoco.example.png" })).statusCode).toBe(404);
  });
});

describe("roles", () => {
  it("a member may read the profile but gets 403 on the admin-only routes, which change nothing", async () => {
    const member = await addMember(t, admin.organizationId);
    expect((await t.app.inject({ url: "/api/organization", headers: member.headers })).statusCode).toBe(200);
    const patch = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: member.headers,
      payload: { name: "Hijacked", website: "logoco.example" },
    });
    expect(patch.statusCode).toBe(403);
    const upload = multipart("logo", "logo.png", "image/png", await png());
    const logo = await t.app.inject({
      method: "POST",
      url: "/api/organization/logo",
      headers: { ...member.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(logo.statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/organization", headers: admin.headers })).json().name).not.toBe(
      "Hijacked",
    );
  });
});

describe("install settings", () => {
  it("answers any member the organization id and PUBLIC_URL, not the address the request came to", async () => {
    const member = await addMember(t, admin.organizationId);
    for (const headers of [admin.headers, member.headers]) {
      const response = await t.app.inject({
        url: "/api/organization/install",
        headers: { ...headers, host: "127.0.0.1:3000" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ organizationId: admin.organizationId, publicUrl: TEST_PUBLIC_URL });
    }
    expect((await t.app.inject({ url: "/api/organization/install" })).statusCode).toBe(401);
  });
});

describe("site metadata", () => {
  it.each(["127.0.0.1", "localhost", "[::1]", "169.254.169.254", "10.0.0.7", "0x7f.0.0.1"])(
    "refuses %s (no private, loopback or metadata address)",
    async (domain) => {
      const response = await t.app.inject({ url: `/api/metadata?domain=${encodeURIComponent(domain)}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String) });
    },
  );

  it("reads the name and description of a real site (a local fixture, allowed only by OUTBOUND_ALLOW_PRIVATE)", async () => {
    const { startFixtureSite } = await import("../../testing/fixture-site");
    const site = await startFixtureSite((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        '<html><head><title>Fixture &amp; Co</title><meta property="og:site_name" content="Fixture Analytics"><meta name="description" content="Analytics for fixtures."></head></html>',
      );
    });
    const local = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: "true" } });
    try {
      const host = `127.0.0.1:${site.port}`;
      const allowed = await local.app.inject({ url: `/api/metadata?domain=${host}` });
      expect(allowed.json()).toEqual({
        siteName: "Fixture Analytics",
        description: "Analytics for fixtures.",
      });
      // Without the switch the same site is refused.
      const refused = await t.app.inject({ url: `/api/metadata?domain=${host}` });
      expect(refused.statusCode).toBe(400);
      expect(site.requests).toHaveLength(1);
    } finally {
      await local.close();
      await site.close();
    }
  });
});
