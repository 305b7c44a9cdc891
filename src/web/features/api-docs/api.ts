import { useQuery } from "@tanstack/react-query";
import type { OpenApiDocument } from "@/features/api-docs/openapi-types";

/** Public and generated from the routes' schemas, so the page always shows the running server's API. */
export const OPENAPI_PATH = "/api/openapi.json";

export function useOpenApiDocument() {
  return useQuery<OpenApiDocument>({ queryKey: [OPENAPI_PATH] });
}
