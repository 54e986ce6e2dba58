/**
 * The fenced code blocks of a Markdown file (the README), with the section each is in and whether it
 * is run or skipped. `sh`/`bash` blocks run in bash and `ts` blocks with tsx (readme-runner.ts); any
 * block, of any language, is skipped only by a marker on the line before it (blank lines between
 * allowed) that gives the reason:
 *
 *     <!-- docs-test: skip (runs until stopped) -->
 *
 * A block that is neither run nor skipped, or a marker without a reason, is a problem the test
 * reports: every block of the README either works or says why it is not tried.
 */

export type BlockKind = 'shell' | 'typescript';

export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's info string (`sh`, `ts`, `json`, or empty). */
  readonly language: string;
  readonly code: string;
  /** The heading the block is under (its text, without the #s). */
  readonly section: string;
  /** How it runs; undefined when it is skipped (or cannot run). */
  readonly kind: BlockKind | undefined;
  /** The marker's reason when it is skipped. */
  readonly skipped: string | undefined;
}

export interface ParsedReadme {
  readonly blocks: readonly ReadmeBlock[];
  /** Blocks neither run nor skipped, markers without a reason or before no block. */
  readonly problems: readonly string[];
}

const KINDS: Readonly<Record<string, BlockKind>> = {
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  ts: 'typescript',
  typescript: 'typescript',
};
const MARKER = /^<!--\s*docs-test:(.*?)-->\s*$/;
const SKIP = /^\s*skip\s*\((.*\S.*)\)\s*$/;

export function parseReadme(markdown: string): ParsedReadme {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  const problems: string[] = [];
  let section = '(top)';
  /** A marker read and not yet used by a block: its line and reason. */
  let marker: { line: number; reason: string | undefined } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const fence = /^```(\S*)\s*$/.exec(text);
    if (fence) {
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
      const language = fence[1] ?? '';
      const skipped = marker?.reason;
      const kind = skipped === undefined ? KINDS[language] : undefined;
      if (marker && marker.reason === undefined) {
        problems.push(`line ${marker.line}: a docs-test marker must read "<!-- docs-test: skip (reason) -->"`);
      } else if (kind === undefined && skipped === undefined) {
        problems.push(
          `line ${start + 1} ("${section}"): a \`\`\`${language} block is neither run (sh, ts) nor skipped with <!-- docs-test: skip (reason) -->`,
        );
      }
      blocks.push({ line: start + 1, language, code: body.join('\n'), section, kind, skipped });
      marker = undefined;
      continue;
    }
    const found = MARKER.exec(text);
    if (found) {
      if (marker) problems.push(`line ${marker.line}: a docs-test marker before no code block`);
      marker = { line: i + 1, reason: SKIP.exec(found[1] ?? '')?.[1]?.trim() };
      continue;
    }
    if (text.trim() === '') continue;
    if (marker) {
      problems.push(`line ${marker.line}: a docs-test marker before no code block`);
      marker = undefined;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(text);
    if (heading) section = (heading[1] ?? '').trim();
  }
  if (marker) problems.push(`line ${marker.line}: a docs-test marker before no code block`);
  return { blocks, problems };
}

/**
 * What a block says it prints: the `…`-quoted fragments of its `# prints …` (shell) or
 * `// prints …` (TypeScript) comments, `…` inside a fragment standing for anything. Undefined
 * when the block says nothing about what it prints.
 */
export function printedFragments(block: Pick<ReadmeBlock, 'code' | 'kind'>): readonly string[] | undefined {
  const comment = block.kind === 'typescript' ? /\/\/(.*)$/ : /(?:^|\s)#(.*)$/;
  let stated = false;
  const fragments: string[] = [];
  for (const line of block.code.split('\n')) {
    const text = comment.exec(line)?.[1];
    if (text === undefined) continue;
    const said = /\bprints\b(.*)$/.exec(text)?.[1];
    if (said === undefined) continue;
    stated = true;
    for (const match of said.matchAll(/`([^`]+)`/g)) fragments.push(match[1] ?? '');
  }
  return stated ? fragments : undefined;
}

/** A fragment as a pattern: the text itself, `…` matching anything on one line. */
export function fragmentPattern(fragment: string): RegExp {
  return new RegExp(
    fragment
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?'),
  );
}
