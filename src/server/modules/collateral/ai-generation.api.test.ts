import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { type FixtureSite, startFixtureSite } from "../../testing/fixture-site";

/** An OpenAI-compatible endpoint on localhost answering what the test says. */
let answer: { status: number; content: string } = { status: 200, content: "{}" };
let endpoint: FixtureSite;
let t: TestApp;
let a: Awaited<ReturnType<typeof createOrganization>>;
let b: Awaited<ReturnType<typeof createOrganization>>;
const requests: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];

beforeAll(async () => {
  endpoint = await startFixtureSite((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      requests.push(JSON.parse(body));
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ choices: [{ message: { role: "assistant", content: answer.content } }] }),
      );
    });
  });
  t = await createTestApp({
    env: { AI_BASE_URL: `${endpoint.origin}/v1`, AI_API_KEY: "sk-test", AI_MODEL: "test-model" },
  });
  a = await createOrganization(t, "aisharer");
  b = await createOrganization(t, "aibuddy");
  await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: a.headers,
    payload: { organizationId: b.organizationId, type: "complement" },
  });
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

const generate = () =>
  t.app.inject({
    method: "POST",
    url: `/api/marketing/generate?organizationId=${b.organizationId}`,
    headers: a.headers,
  });

describe("Generate with AI through an OpenAI-compatible endpoint", () => {
  it("uses the model's copy, cut to the limits, and keeps the draft's URLs", async () => {
    answer = {
      status: 200,
      content: JSON.stringify({
        name: "Meet Aibuddy, the partner tool",
        description: `${"Great ".repeat(20)}tool`,
        ctaText: "See it",
        ctaUrl: "https://evil.example",
      }),
    };
    const response = await generate();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.name.length).toBeLessThanOrEqual(25);
    expect(body.description.length).toBeLessThanOrEqual(100);
    expect(body.ctaText).toBe("See it");
    expect(body.ctaUrl).toMatch(/^https:\/\/aibuddy\.example\?utm_source=/);
    const last = requests.at(-1);
    expect(last?.model).toBe("test-model");
    expect(last?.messages[1]?.content).toContain("aibuddy");
  });

  it("falls back to the built-in draft when the endpoint fails or answers nonsense", async () => {
    answer = { status: 500, content: "" };
    const failed = await generate();
    expect(failed.statusCode).toBe(200);
    expect(failed.json().name).toBe("aibuddy");
    answer = { status: 200, content: "not json" };
    expect((await generate()).json().ctaText).toBe("Try aibuddy");
  });

  it("never returns copy naming a company on either side of the block list", async () => {
    const rival = await createOrganization(t, "rivalcorp");
    await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: rival.headers,
      payload: { organizationId: a.organizationId, type: "competitor" },
    });
    answer = {
      status: 200,
      content: JSON.stringify({ name: "Better than Rivalcorp", description: "Much better", ctaText: "Go" }),
    };
    const body = (await generate()).json();
    expect(JSON.stringify(body).toLowerCase()).not.toContain("rivalcorp");
  });
});
