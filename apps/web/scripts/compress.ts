// Writes .br and .gz beside every built text asset, so the server sends compressed files without compressing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const compressible = /\.(js|css|html|svg|txt|json)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? walk(file) : [file];
  });
}

let count = 0;
for (const file of walk(dist)) {
  if (!compressible.test(file) || file.endsWith('index.html')) continue;
  const content = readFileSync(file);
  if (content.length < 1024) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  count++;
}
console.log(`compressed ${count} files in ${path.relative(process.cwd(), dist)}`);
