// The single source of truth for every configuration key and its default value.
// Validation derives expected types from this object, so a key added here is a key users may set.

/** The model that ships inside the package (models/<id>/); the local provider's default. */
export const BUNDLED_MODEL_ID = "opencode-rag-code-v2";

export const DEFAULT_EXCLUDED_DIRS = [
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  ".opencode",
  "dist",
  "build",
  "out",
  "coverage",
  "vendor",
  "target",
  // .NET intermediate output; `bin/` is not listed: it holds source in most JavaScript, Ruby
  // and shell projects (.NET's bin/ output is binaries, excluded by extension).
  "obj",
  ".next",
  ".nuxt",
  ".cache",
  ".venv",
  "venv",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".tox",
  ".gradle",
  ".idea",
  ".vscode",
  "bower_components",
  ".terraform",
  ".turbo",
];

/**
 * Matched against the end of each file name (case-insensitive), so a whole name works too: the
 * dependency lock files that do not end in `.lock` are listed by name. A lock file is written
 * by the package manager, restates the manifest's dependencies hundreds of times over (a
 * 300 KB `package-lock.json` is ~100 chunks beside a small project's ~20) and answers no
 * question about the code.
 */
export const DEFAULT_EXCLUDED_EXTENSIONS = [
  ".lock",
  ".lockb",
  ".lockfile",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "packages.lock.json",
  "package.resolved",
  "go.sum",
  "go.work.sum",
  ".terraform.lock.hcl",
  ".map",
  ".min.js",
  ".min.css",
  ".exe",
  ".dll",
  ".so",
  ".dylib",
  ".a",
  ".o",
  ".obj",
  ".class",
  ".jar",
  ".war",
  ".pyc",
  ".pyo",
  ".wasm",
  ".zip",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".7z",
  ".rar",
  ".tar",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".eot",
  ".ico",
  ".mp3",
  ".mp4",
  ".mov",
  ".avi",
  ".wav",
  ".ogg",
  ".webm",
  ".bin",
  ".dat",
  ".db",
  ".sqlite",
  ".lance",
  ".onnx",
  ".pt",
  ".safetensors",
  // Translation catalogs: a localised project's UI strings again in every language (Django
  // ships 1,182 of them, more than half its chunks), never the code that answers a question.
  ".po",
  ".pot",
  ".xlf",
  ".xliff",
];

/**
 * Files that hold credentials: never read, chunked, embedded or sent anywhere, and listed as
 * skipped with the reason "secret". Gitignore-style patterns, relative to the workspace.
 * `indexing.extraSecretFiles` adds patterns, `indexing.allowSecretFiles` lets a file back in,
 * and `indexing.secretFiles: []` turns the list off. Files with a service-account JSON or a
 * private key block as their content are skipped whatever their name.
 */
export const DEFAULT_SECRET_FILES = [
  ".env",
  ".env.*",
  "!.env.example",
  "!.env.sample",
  "!.env.template",
  "!.env.dist",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "*.ppk",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".pgpass",
  ".git-credentials",
  ".htpasswd",
  "credentials",
  "credentials.json",
  "**/.docker/config.json",
  "*.tfvars",
  "*.tfstate",
  "*.tfstate.backup",
  "kubeconfig",
  "opencode.json",
  "opencode.jsonc",
];

export const DEFAULT_CONFIG = {
  embedding: {
    /** local | ollama | openai | none (keyword-only: no model is loaded and nothing is embedded) */
    provider: "local",
    /** For local: a folder name under models/, an absolute folder, or a Hugging Face id. */
    model: BUNDLED_MODEL_ID,
    /** Ollama: http://localhost:11434 ; OpenAI-compatible: https://api.openai.com/v1 */
    baseUrl: "",
    apiKey: "",
    batchSize: 64,
    timeoutMs: 30000,
    maxRetries: 4,
    /** First retry delay of a remote provider (doubles each retry, with jitter; Retry-After wins). */
    retryBaseMs: 500,
    /** Remote providers: ask for vectors of this length (OpenAI text-embedding-3 models); 0 = model default. */
    dimensions: 0,
    /** Concurrent requests to a remote provider. */
    concurrency: 2,
    /** Threads the local ONNX runtime may use (2-core laptops: both). */
    threads: 2,
    /** Local models downloaded by id are cached here (relative to the workspace). */
    cacheDir: ".opencode/rag_models",
    proxy: { url: "" },
  },
  vectorStore: {
    /**
     * A folder, `memory://`, `s3://bucket/prefix` (a team-shared index: docs/shared-index.md),
     * or another LanceDB URI (gs://, az://, db://: the table only; the other files stay local).
     */
    path: ".opencode/rag_db",
    tableName: "chunks",
    /**
     * Object storage settings handed to LanceDB (and used for the index's files beside the
     * table): e.g. aws_endpoint, aws_region, aws_access_key_id. Empty: the standard sources.
     */
    storageOptions: {} as Record<string, string>,
  },
  indexing: {
    /** Extra gitignore-style patterns to exclude, on top of .gitignore and .opencode-ragignore. */
    exclude: [] as string[],
    excludeDirs: DEFAULT_EXCLUDED_DIRS,
    excludeExtensions: DEFAULT_EXCLUDED_EXTENSIONS,
    /** Files larger than this are left out (listed by `status` with the reason). */
    maxFileSizeBytes: 1_048_576,
    /**
     * Source code (by its extension, a programming language) may be this large when it reads as
     * written by hand: not marked as generated, not minified. A compiler's checker is one such file.
     */
    maxSourceFileSizeBytes: 4_194_304,
    respectGitignore: true,
    /** Credential files, never indexed (see DEFAULT_SECRET_FILES); [] turns the list off. */
    secretFiles: DEFAULT_SECRET_FILES,
    /** More secret-file patterns, on top of secretFiles. */
    extraSecretFiles: [] as string[],
    /** Patterns let back in although secretFiles names them, e.g. ["config/dev.key"]. */
    allowSecretFiles: [] as string[],
    /**
     * Share of the cores a background pass (the plugin's indexer, `index --watch`) may keep
     * busy, above 0 and at most 1; its threads also run at the lowest priority. A pass you run
     * yourself (`opencode-rag index`) uses every core.
     */
    maxCpuShare: 0.5,
  },
  chunking: {
    /** A node longer than this many lines is split at child boundaries. */
    maxLines: 120,
    /** A chunk longer than this many characters is split. */
    maxChars: 4000,
    /** Adjacent chunks shorter than this many characters are merged. */
    minChars: 200,
    /**
     * Neighbouring declarations of one parent (a file's functions, a class's methods) share a
     * chunk up to this many characters, each still named in its context; 0 gives every
     * declaration a chunk of its own. A small method found with its neighbours is found more
     * often than alone (docs/retrieval.md), and a result stays under a thousand tokens.
     */
    packChars: 2500,
    /** Line-fallback chunk size and overlap (F3). */
    fallbackLines: 100,
    overlapLines: 10,
    maxSvgSizeBytes: 262_144,
    /** Per-language extra tree-sitter node types to treat as chunks: { "python": ["match_statement"] }. */
    nodeTypes: {} as Record<string, string[]>,
  },
  /** Custom chunkers: [{ "module": "./x.js", "extensions": [".rs"] }], paths relative to the config file. */
  chunkers: [] as Array<{ module: string; extensions?: string[] }>,
  retrieval: {
    topK: 10,
    minScore: 0,
    /** Upper bound on chunks any single retrieval may return. */
    maxChunks: 25,
    /** Fuse keyword (BM25) and vector results; false = vector only when a model is present. */
    hybrid: true,
    /** Apply the code-aware ranking stage. */
    rank: true,
    /** Parts of the ranking stage (docs/retrieval.md); switch one off if it hurts your code base. */
    rankFeatures: {
      fusion: true,
      symbolMatch: true,
      symbolTerms: true,
      termCoverage: true,
      pathMatch: true,
      definitions: true,
      chunkKind: true,
      fileAggregation: true,
      fileMatch: true,
      nameSimilarity: true,
      diversity: true,
      demoteNonSource: true,
    },
  },
  autoIndex: {
    enabled: true,
    /** chokidar | git */
    backend: "chokidar",
    debounceMs: 2000,
    intervalMs: 300_000,
    /**
     * While watching, answer other processes' searches (`opencode-rag query` from a script or
     * a terminal) over a socket only this user can open, so they skip loading the model.
     */
    serveQueries: true,
  },
  description: {
    enabled: false,
    /** openai | ollama */
    provider: "openai",
    model: "",
    visionModel: "",
    baseUrl: "",
    apiKey: "",
    maxChunksPerPass: 500,
    maxTokensPerPass: 200_000,
    timeoutMs: 60000,
  },
  logging: {
    /** debug | info | error */
    level: "info",
    logFilePath: "./.opencode/opencode-rag.log",
  },
  openCode: {
    /** Replace OpenCode's read tool with one that appends related chunks (F25). */
    readOverride: false,
    readOverrideMinScore: 0.5,
    /** Append a file list to every user message, without a hotkey (the older behaviour). */
    autoInject: false,
    maxContextChunks: 5,
    /** Token budget of any context appended to a message. */
    injectTokenBudget: 2000,
    /**
     * How long a file list or chunks the user asked for (Ctrl+Enter, /rag, /rag-chunks) may hold
     * the message while the index opens or answers; automatic additions keep
     * memory.latencyBudgetMs. A miss is said in the message.
     */
    requestedInjectWaitMs: 20000,
    /** Token budget of a tool's answer. */
    toolTokenBudget: 4000,
  },
  documentationMode: {
    enabled: false,
    batchSize: 5,
  },
  wikiMode: {
    enabled: true,
  },
  memory: {
    enabled: true,
    autoInject: true,
    minConfidence: 0.5,
    /** Hybrid scores of quirk recall: a related quirk scores ~0.35-0.65, an unrelated one < 0.2. */
    recallMinScore: 0.2,
    autoInjectMinScore: 0.3,
    autoInjectTopK: 2,
    /** Content words a quirk must share with the user's message (a shared identifier counts as its parts). */
    autoInjectMinTokenOverlap: 2,
    latencyBudgetMs: 2000,
    injectTokenBudget: 300,
    promptEnforcement: false,
    passiveCapture: false,
    sessionEndExtraction: false,
    /** Lexical similarity at or above which a new quirk is a duplicate of an old one. */
    dedupThreshold: 0.85,
    decay: { enabled: true, halfLifeDays: 30 },
  },
  keybindings: {
    injectFiles: "ctrl+return",
    injectChunks: "ctrl+alt+return",
    settings: "ctrl+shift+r",
  },
};

export type RagConfig = typeof DEFAULT_CONFIG;

/** Keys whose value must be one of a fixed set. */
export const ENUM_KEYS: Record<string, readonly string[]> = {
  "embedding.provider": ["local", "ollama", "openai", "none"],
  "autoIndex.backend": ["chokidar", "git"],
  "description.provider": ["openai", "ollama"],
  "logging.level": ["debug", "info", "error"],
};

/** Keys holding free-form maps: any sub-key, each value of the kind named here. */
export const OPEN_MAP_KEYS: Record<string, "string" | "string list"> = {
  "chunking.nodeTypes": "string list",
  "vectorStore.storageOptions": "string",
};

/** Changing one of these invalidates the index: the next pass rebuilds. */
export const REINDEX_KEYS = [
  "embedding.provider",
  "embedding.model",
  "chunking.maxLines",
  "chunking.maxChars",
  "chunking.minChars",
  "chunking.packChars",
  "chunking.fallbackLines",
  "chunking.overlapLines",
  "chunking.nodeTypes",
  "chunkers",
  "description.enabled",
];
