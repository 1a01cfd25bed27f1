// API key resolution for OpenAI-compatible services: config, env, OpenCode's JSONC configs
// (project and user level, in a temp HOME/XDG dir), "{env:NAME}" values and auth.json.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { resolveApiKey } from "../../core/embedding/api-keys.js";
import { createOpenAIProvider } from "../../core/embedding/openai.js";
import { startFakeOpenAI } from "../fakes/openai.js";

let dir: string;
let root: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rag-keys-"));
  root = join(dir, "project");
  mkdirSync(root, { recursive: true });
  env = { HOME: join(dir, "home"), XDG_CONFIG_HOME: join(dir, "xdg-config"), XDG_DATA_HOME: join(dir, "xdg-data") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const userConfig = `{
  // my providers
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "openai": {
      "options": { "apiKey": "sk-user-level", }, /* trailing comma above */
    },
  },
}`;

describe("resolveApiKey", () => {
  it("prefers the configured key, then OPENAI_API_KEY", () => {
    write(join(env.XDG_CONFIG_HOME, "opencode", "opencode.jsonc"), userConfig);
    expect(resolveApiKey({ configKey: "sk-config", root, env: { ...env, OPENAI_API_KEY: "sk-env" } })).toEqual({ key: "sk-config", source: "config" });
    expect(resolveApiKey({ configKey: "", root, env: { ...env, OPENAI_API_KEY: "sk-env" } })).toEqual({ key: "sk-env", source: "env OPENAI_API_KEY" });
  });

  it("reads the user-level JSONC OpenCode config, comments and trailing commas included", () => {
    const file = join(env.XDG_CONFIG_HOME, "opencode", "opencode.jsonc");
    write(file, userConfig);
    expect(resolveApiKey({ configKey: "", root, env })).toEqual({ key: "sk-user-level", source: file });
  });

  it("falls back to ~/.config when XDG_CONFIG_HOME is unset", () => {
    const file = join(env.HOME, ".config", "opencode", "opencode.jsonc");
    write(file, userConfig);
    expect(resolveApiKey({ configKey: "", root, env: { HOME: env.HOME, XDG_DATA_HOME: env.XDG_DATA_HOME } })?.key).toBe("sk-user-level");
  });

  it("lets the project's .opencode/opencode.json win over opencode.json and the user config", () => {
    write(join(env.XDG_CONFIG_HOME, "opencode", "opencode.jsonc"), userConfig);
    write(join(root, "opencode.json"), JSON.stringify({ provider: { openai: { options: { apiKey: "sk-root" } } } }));
    expect(resolveApiKey({ configKey: "", root, env })?.key).toBe("sk-root");
    write(join(root, ".opencode", "opencode.json"), JSON.stringify({ provider: { openai: { options: { apiKey: "sk-dot-opencode" } } } }));
    expect(resolveApiKey({ configKey: "", root, env })?.key).toBe("sk-dot-opencode");
  });

  it("picks the provider whose baseURL matches ours and resolves {env:NAME}", () => {
    write(
      join(root, "opencode.json"),
      JSON.stringify({
        provider: {
          openai: { options: { apiKey: "sk-openai" } },
          gateway: { options: { baseURL: "https://llm.example.test/v1/", apiKey: "{env:GATEWAY_KEY}" } },
        },
      }),
    );
    const lookup = { configKey: "", root, baseUrl: "https://llm.example.test/v1", env: { ...env, GATEWAY_KEY: "gw-secret" } };
    expect(resolveApiKey(lookup)?.key).toBe("gw-secret");
    expect(resolveApiKey({ ...lookup, baseUrl: "https://api.openai.com/v1" })?.key).toBe("sk-openai");
    // OpenAI's stored key is never handed to another host.
    expect(resolveApiKey({ ...lookup, baseUrl: "https://other.example.test/v1" })).toBeNull();
  });

  it("finds keys of other hosted services by their host, and never sends them another service's key", () => {
    write(join(env.XDG_DATA_HOME, "opencode", "auth.json"), JSON.stringify({ openai: { type: "api", key: "sk-openai" }, groq: { type: "api", key: "gsk-auth" } }));
    const groq = { configKey: "", root, baseUrl: "https://api.groq.com/openai/v1", env: { ...env, OPENAI_API_KEY: "sk-env" } };
    expect(resolveApiKey(groq)).toEqual({ key: "gsk-auth", source: join(env.XDG_DATA_HOME, "opencode", "auth.json") });
    expect(resolveApiKey({ ...groq, env: { ...groq.env, GROQ_API_KEY: "gsk-env" } })?.key).toBe("gsk-env");
    write(join(root, "opencode.json"), JSON.stringify({ provider: { openrouter: { options: { apiKey: "sk-or-config" } } } }));
    expect(resolveApiKey({ ...groq, baseUrl: "https://openrouter.ai/api/v1" })?.key).toBe("sk-or-config");
    // A host we do not know gets OPENAI_API_KEY only, as the OpenAI SDKs do for a custom base URL.
    expect(resolveApiKey({ ...groq, baseUrl: "http://127.0.0.1:1234/v1" })?.key).toBe("sk-env");
    expect(resolveApiKey({ ...groq, baseUrl: "http://127.0.0.1:1234/v1", env })).toBeNull();
  });

  it("uses a key stored by `opencode auth login` and returns null when there is none", () => {
    expect(resolveApiKey({ configKey: "", root, env })).toBeNull();
    write(join(env.XDG_DATA_HOME, "opencode", "auth.json"), JSON.stringify({ openai: { type: "api", key: "sk-auth" } }));
    expect(resolveApiKey({ configKey: "", root, env })?.key).toBe("sk-auth");
  });

  it("skips a broken OpenCode config instead of failing", () => {
    write(join(root, "opencode.json"), "{ not json");
    write(join(env.XDG_CONFIG_HOME, "opencode", "opencode.jsonc"), userConfig);
    expect(resolveApiKey({ configKey: "", root, env })?.key).toBe("sk-user-level");
  });

  it("sends the key found in OpenCode's JSONC config to the server it is configured for", async () => {
    const server = await startFakeOpenAI({ apiKey: "sk-gateway" });
    write(
      join(env.XDG_CONFIG_HOME, "opencode", "opencode.jsonc"),
      `{\n  // a self-hosted gateway\n  "provider": { "gateway": { "options": { "baseURL": "${server.url}/v1", "apiKey": "sk-gateway", }, }, },\n}`,
    );
    try {
      const cfg = { ...structuredClone(DEFAULT_CONFIG.embedding), provider: "openai", model: "text-embedding-3-small", baseUrl: `${server.url}/v1` };
      const provider = createOpenAIProvider(cfg, { root, env });
      expect(await provider.dimension()).toBe(48);
      expect(server.requests[0].headers.authorization).toBe("Bearer sk-gateway");
    } finally {
      await server.close();
    }
  });
});
