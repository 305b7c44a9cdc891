/**
 * An OpenAI-compatible chat-completions client (AI_BASE_URL, AI_API_KEY, AI_MODEL). The endpoint
 * is the operator's own configuration, not user input, so it is called directly.
 */
export type AiClient = { completeJson(system: string, user: string): Promise<unknown> };

export class AiError extends Error {}

export function createAiClient(options: {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
}): AiClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    async completeJson(system, user) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model ?? "gpt-4o-mini",
            response_format: { type: "json_object" },
            temperature: 0.7,
            messages: [
              { role: "system", content: system },
              { role: "user", content: user },
            ],
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        });
      } catch (error) {
        throw new AiError(`AI endpoint unreachable: ${(error as Error).message}`);
      }
      if (!response.ok) throw new AiError(`AI endpoint answered ${response.status}`);
      const body = (await response.json().catch(() => null)) as {
        choices?: Array<{ message?: { content?: string } }>;
      } | null;
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== "string") throw new AiError("AI answer has no message content");
      try {
        return JSON.parse(content);
      } catch {
        throw new AiError("AI answer is not JSON");
      }
    },
  };
}
