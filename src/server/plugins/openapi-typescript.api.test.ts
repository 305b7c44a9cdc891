import {
  conversionCreatedMessageSchema,
  relationshipCreatedMessageSchema,
  WEBHOOK_MESSAGE_TYPES,
  webhookMessageJsonSchema,
  webhookTestMessageSchema,
} from "@shared/webhooks";
import openapiTS, { astToString, typescript as ts } from "buddy-openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app";

/**
 * Issue 35: a client generated from /api/openapi.json by openapi-typescript types the webhook
 * messages, from the `webhooks` the document publishes (one per event schema in shared/webhooks.ts).
 */
let t: TestApp;
let document: {
  webhooks: Record<string, { post: Record<string, unknown> }>;
  components: { schemas: Record<string, unknown> };
};
let generated: string;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ url: "/api/openapi.json" });
  expect(response.statusCode).toBe(200);
  document = response.json();
  generated = astToString(await openapiTS(response.json()));
});
afterAll(() => t.close());

/** Type-checks `snippet` against the generated module (TypeScript 5, in memory): its errors. */
function typeErrors(snippet: string): string[] {
  const files: Record<string, string> = { "/api.ts": generated, "/client.ts": snippet };
  const options: Parameters<typeof ts.createCompilerHost>[0] = {
    strict: true,
    noEmit: true,
    // ES5's declarations are all the snippet needs: no DOM to load and check.
    lib: ["lib.es5.d.ts"],
    skipDefaultLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.fileExists = (name) => name in files || fileExists(name);
  host.getSourceFile = (name, version) => {
    const text = host.readFile(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, version);
  };
  const program = ts.createProgram(["/client.ts"], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("the webhooks of /api/openapi.json", () => {
  it("publish one POST per message type: the event's schema as its body, the signature headers", () => {
    expect(Object.keys(document.webhooks)).toEqual(WEBHOOK_MESSAGE_TYPES);
    for (const type of WEBHOOK_MESSAGE_TYPES) {
      const post = document.webhooks[type]?.post as {
        parameters: { name: string; in: string; required: boolean }[];
        requestBody: { content: { "application/json": { schema: { $ref: string } } } };
      };
      expect(post.parameters.map(({ name, in: where, required }) => [name, where, required])).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      const ref = post.requestBody.content["application/json"].schema.$ref;
      const name = ref.replace("#/components/schemas/", "");
      expect(document.components.schemas[name]).toEqual(webhookMessageJsonSchema(type));
    }
  });
});

describe("a client generated from /api/openapi.json (openapi-typescript)", () => {
  it("has a webhooks interface with every message type, its data fields and the signature headers", () => {
    expect(generated).toMatch(/export interface webhooks \{/);
    const webhooks = generated.slice(generated.indexOf("export interface webhooks {"));
    for (const type of WEBHOOK_MESSAGE_TYPES) expect(webhooks).toContain(`"${type}": {`);
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"])
      expect(webhooks).toContain(`"${header}": string`);
    for (const schema of [
      conversionCreatedMessageSchema,
      relationshipCreatedMessageSchema,
      webhookTestMessageSchema,
    ]) {
      for (const field of Object.keys(schema.shape.data.shape))
        expect(generated).toMatch(new RegExp(`\\b${field}\\??: `));
    }
    expect(generated).toContain('direction: "received" | "sent";');
    expect(generated).toContain("value: number | null;");
  });

  it("types a receiver's handling of the messages, and refuses what they do not hold", () => {
    const snippet = `
      import type { webhooks } from "./api";
      type Body<T extends keyof webhooks> =
        NonNullable<webhooks[T]["post"]["requestBody"]>["content"]["application/json"];
      export function handle(message: Body<"conversion.created">): string {
        const { direction, value, currency, partner } = message.data;
        const money: number | null = value;
        return [message.type, direction, money, currency ?? "", partner.name].join(" ");
      }
      export const added: Body<"relationship.created">["data"]["partner"]["website"] = "mailfast.io";
      export const test: Body<"webhook.test">["data"]["endpointId"] = "endpoint";
      // @ts-expect-error: no such field.
      export const none = (message: Body<"conversion.created">) => message.data.amount;
      // @ts-expect-error: a direction is received or sent.
      export const wrong: Body<"conversion.created">["data"]["direction"] = "both";
    `;
    expect(typeErrors(snippet)).toEqual([]);
  });
});
