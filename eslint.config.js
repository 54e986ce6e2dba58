// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Modules talk to each other through services (docs/design.md §8): a module's repositories and
 * tables are its own. Another module imports its service, a `*-store.ts` or a `*.model.ts`, never
 * its storage, not even for a type. Modules sit side by side under src/modules/, so another
 * module's file is `../<module>/…`; the second pair catches a longer way round.
 */
const otherModulesStorage = {
  group: ['../*/*.repository.js', '../*/*.table.js', '**/modules/*/*.repository.js', '**/modules/*/*.table.js'],
  message: "another module's storage: use its service, its *-store.ts or its *.model.ts",
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: 'error',
      curly: ['error', 'multi-line'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and hooks are async by contract, awaited or not.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Dependencies point one way (docs/design.md §8): pure domain code imports no I/O or framework.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['fastify', 'kysely', '**/db/**', '**/modules/**', '**/http/**', 'node:fs', 'better-sqlite3', 'pg'] },
      ],
    },
  },
  {
    // The error catalogue and the signature and certificate checks are the platform's core: they
    // know no route, no module and no web framework (the HTTP layer maps their results).
    files: ['src/errors/**/*.ts', 'src/security/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['fastify', '@fastify/*', '**/http/**', '**/modules/**', '**/app.js'] }],
    },
  },
  {
    // The bank's ports speak the bank's words: no database, no module, no web framework. A
    // bank implements them without knowing our storage; the sandbox adapters live in its module.
    files: ['src/bank/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['fastify', '@fastify/*', 'kysely', '**/db/**', '**/http/**', '**/modules/**', 'better-sqlite3', 'pg'] },
      ],
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesStorage] }] },
  },
  {
    // Routes call services, never repositories or the database handle directly.
    files: ['src/modules/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/*.repository.js', '**/db/**'], allowTypeImports: true, message: 'routes call services' }] },
      ],
    },
  },
  {
    // Services never import Fastify; only repositories and db/ build queries. (This setting
    // replaces the one for every module file, so it repeats its rule.) Nor the HTTP layer:
    // they return domain results, routes make answers of them, and idempotency is the HTTP layer's
    // alone (docs/adr/0009-one-idempotency-mechanism-in-the-http-layer.md). The one exception is the
    // type of the validated request headers, a service's input (PSU, corporate id, redirect URIs).
    files: ['src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', '@fastify/*'] }, otherModulesStorage] }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '!**/http/headers/request-headers.js'],
              message: 'services return domain results; the HTTP layer (routes, idempotency) makes answers of them',
            },
            {
              group: ['**/http/headers/request-headers.js'],
              allowTypeImports: true,
              message: 'services may use the type of the validated request headers, nothing else of the HTTP layer',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
