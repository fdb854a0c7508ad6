// The web server a gateway benchmark downloads from, in its own process: prints its port, serves /bytes?n=N.
import { startTargetServer } from '../apps/server/src/test/proxy-client.ts';

// A web server's usual keep-alive (5 s): with the tests' 100 ms it answers `Keep-Alive: timeout=0`, and Node's client
// (the gateway's onward pool) then opens a new connection for every request.
const target = await startTargetServer('127.0.0.1', 5000);
console.log(JSON.stringify({ port: target.port }));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
