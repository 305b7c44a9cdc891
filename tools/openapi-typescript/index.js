// openapi-typescript, and the TypeScript 5 installed beside it that it runs on (README.md).
export { astToString, default } from "openapi-typescript";
export { default as typescript } from "typescript";
