import { writeFileSync } from 'node:fs';
import { renderErrorDocs } from '../src/errors/error-docs.js';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorDocs());
process.stdout.write('wrote docs/errors.md\n');
