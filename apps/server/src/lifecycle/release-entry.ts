// The release's entry (`node .`, app/cli.js), built apart from the bundle by scripts/package.ts and importing nothing
// of it: a bundle's modules are evaluated before its entry's body, so only a file of its own can check Node first and
// say so in a sentence, where an older Node would otherwise start the shop and fail later, or silently misbehave.
declare global {
  var STOREFRONT_NODE_MAJOR: string | undefined;
}

const needed = Number(globalThis.STOREFRONT_NODE_MAJOR ?? '24');
const found = process.versions.node;
if (Number(found.split('.')[0]) < needed) {
  console.error(
    `This release needs Node.js ${needed} or newer (found ${found}): install Node.js ${needed} and start it with that node.`,
  );
  process.exit(1);
}
// A name in a variable: the bundle beside this file, not a module for esbuild or TypeScript to resolve.
const commands = './commands.js';
await import(commands);

export {};
