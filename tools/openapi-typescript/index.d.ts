export { astToString, default } from "openapi-typescript";
export { default as typescript } from "typescript";
