// A free TCP port on loopback, for the servers tests and benchmarks start themselves.

import net from 'node:net';

/** A port nothing listens on now on 127.0.0.1 (the kernel's choice, released at once for the caller to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
