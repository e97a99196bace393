import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import svelteConfig from './svelte.config.js'

// Layers, enforced (docs/ARCHITECTURE.md, Layout): the renderer knows only the contract and
// the shared rules (src-shared/ipc, src-shared/domain), never the service's shapes; the
// main process never reaches into the renderer; src-shared runs in both, so it imports
// neither; and the core never imports electron (only src-main/shell/electron does).
const restrictImports = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })
const notRenderer = {
  group: ['**/src-renderer/**'],
  message: 'The main process never imports the renderer.',
}
const notElectron = {
  group: ['electron'],
  message: 'The core never imports electron; only src-main/shell/electron does.',
}
// Above db, a mirror comes from openMirror() and is asked capabilities (isShared), never
// which engine holds it (docs/ARCHITECTURE.md, Storage).
const notEngine = {
  group: ['**/db/sqlite/**', '**/db/postgres/**'],
  message: 'Open a mirror with db/open-mirror.ts; ask it capabilities, not its engine.',
}

// The rooms of src-main, top to bottom. An import points only down, or within its own
// room. shell and cli are one room (the shells); the other pairs on one line are peers,
// which do not import each other.
//   shell, cli            the shells: bind transports to the core
//   app                   the core: data source, session, handlers
//   lookup, webhooks,     features over the engine
//   alerts
//   sync, export          the engine and the exports
//   db                    storage: the only place SQL lives
//   service               the data service's HTTP client
//   src-shared            (outside src-main; both processes)
// The simulator is a data source of its own beside service: it imports only src-shared,
// and only app (demo data) and the shells (`heliograph simulator`) import it; tests use
// it over HTTP. Nothing in src-main has a subfolder named like a room, so an import
// string's folder after its `../` steps is the room it reaches.
const levels = [
  [['shell', 'cli']],
  [['app']],
  [['lookup'], ['webhooks'], ['alerts']],
  [['sync'], ['export']],
  [['db']],
  [['service'], ['simulator']],
]
const levelOf = (folder) => levels.findIndex((level) => level.flat().includes(folder))

/** What `folder` may not import: every level above it, its peers, and the simulator. */
function forbiddenFor(folder) {
  const level = levelOf(folder)
  const above = levels.slice(0, level).flat(2)
  const peers = levels[level].filter((room) => !room.includes(folder)).flat()
  const simulator = level > levelOf('app') && folder !== 'simulator' ? ['simulator'] : []
  return [...above, ...peers, ...simulator]
}

function roomRules(folder) {
  const forbidden = forbiddenFor(folder)
  const names = forbidden.join('|')
  return {
    files: [`src-main/${folder}/**`],
    rules: restrictImports([
      notRenderer,
      notElectron,
      ...(folder === 'db' ? [] : [notEngine]),
      {
        regex: `^(?:\\.\\./)+(?:${names})(?:/|$)|(?:^|/)src-main/(?:${names})(?:/|$)`,
        message: `src-main/${folder} may not import ${forbidden.join(', ')}: imports point down the layers (docs/ARCHITECTURE.md, Layout). Move what both need down.`,
      },
    ]),
  }
}

const mainLayers = [
  {
    files: ['src-main/**'],
    rules: {
      ...restrictImports([notRenderer, notElectron, notEngine]),
      // Small rooms: a function that grows past this is split by what its parts do.
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: ['src-main/shell/electron/**'], rules: restrictImports([notRenderer, notEngine]) },
  ...levels
    .flat(2)
    .filter((folder) => forbiddenFor(folder).length > 0)
    .map(roomRules),
]

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Svelte files are parsed as TypeScript without type information: no rule here needs it
  // (types are checked by svelte-check), and building it was four fifths of lint's time.
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
        svelteConfig,
      },
    },
  },
  {
    files: ['src-renderer/**'],
    rules: restrictImports([
      {
        group: ['**/src-main/**', 'electron', 'node:*'],
        message: 'The renderer talks to main only through src-shared/ipc.',
      },
      {
        group: ['@shared/api', '@shared/api/**', '**/src-shared/api/**'],
        message:
          'The renderer shows view models of src-shared/ipc (and rules of src-shared/domain), not the service’s shapes.',
      },
    ]),
  },
  {
    files: ['src-shared/**'],
    rules: restrictImports([
      {
        group: ['**/src-main/**', '**/src-renderer/**', 'node:*', 'electron'],
        message: 'src-shared runs in both processes: no Node, no DOM, no app code.',
      },
    ]),
  },
  ...mainLayers,
)
