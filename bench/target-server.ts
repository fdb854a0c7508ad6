// The web server a gateway benchmark downloads from, in its own process: prints its port, serves /bytes?n=N.
import { startTargetServer } from '../apps/server/src/test/proxy-client.ts';

const target = await startTargetServer();
console.log(JSON.stringify({ port: target.port }));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
