import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import svelteConfig from './svelte.config.js'

// The layer rules of docs/ARCHITECTURE.md (Layout), enforced: the renderer knows only the
// contract and the shared rules (src-shared/ipc, src-shared/domain), never the service's
// shapes; the main process never reaches into the renderer; src-shared runs in both, so it
// imports neither.
const layerRules = (...groups) => ({
  'no-restricted-imports': [
    'error',
    { patterns: groups.map(([forbidden, message]) => ({ group: forbidden, message })) },
  ],
})

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
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
        svelteConfig,
      },
    },
  },
  {
    files: ['src-renderer/**'],
    rules: layerRules(
      [
        ['**/src-main/**', 'electron', 'node:*'],
        'The renderer talks to main only through src-shared/ipc.',
      ],
      [
        ['@shared/api', '@shared/api/**', '**/src-shared/api/**'],
        'The renderer shows view models of src-shared/ipc (and rules of src-shared/domain), not the service’s shapes.',
      ],
    ),
  },
  {
    files: ['src-main/**'],
    rules: layerRules([['**/src-renderer/**'], 'The main process never imports the renderer.']),
  },
  {
    files: ['src-shared/**'],
    rules: layerRules([
      ['**/src-main/**', '**/src-renderer/**', 'node:*', 'electron'],
      'src-shared runs in both processes: no Node, no DOM, no app code.',
    ]),
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/shell/electron/**'],
    rules: layerRules([
      ['**/src-renderer/**', 'electron'],
      'The core never imports electron; only src-main/shell/electron does.',
    ]),
  },
  {
    // Above db, a mirror comes from openMirror() and is asked capabilities (isShared),
    // never which engine holds it (docs/ARCHITECTURE.md, Storage).
    files: ['src-main/**'],
    ignores: ['src-main/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-renderer/**'],
              message: 'The main process never imports the renderer.',
            },
            {
              group: ['**/db/sqlite/**', '**/db/postgres/**'],
              message: 'Open a mirror with db/open-mirror.ts; ask it capabilities, not its engine.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/db/**', 'src-main/shell/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-renderer/**', 'electron'],
              message: 'The core never imports electron; only src-main/shell/electron does.',
            },
            {
              group: ['**/db/sqlite/**', '**/db/postgres/**'],
              message: 'Open a mirror with db/open-mirror.ts; ask it capabilities, not its engine.',
            },
          ],
        },
      ],
    },
  },
)
