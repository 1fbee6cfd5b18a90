#!/usr/bin/env python3
"""A TCP relay that hands on what the server answers DELAY_MS late (scripts/netfault delay-pg).

    netfault-relay.py LISTEN_PORT TARGET_PORT DELAY_MS

Listens on 127.0.0.1:LISTEN_PORT and connects each client to 127.0.0.1:TARGET_PORT. Bytes from
the client go on at once; bytes from the server are held DELAY_MS after they arrived, in order,
as a link with that one-way latency would hold them (the kernel here has no netem qdisc).
"""
import asyncio
import sys


async def pipe(reader, writer, delay):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def read():
        try:
            while data := await reader.read(65536):
                await queue.put((loop.time() + delay, data))
        except ConnectionError:
            pass
        await queue.put((None, b""))

    async def write():
        try:
            while True:
                due, data = await queue.get()
                if due is None:
                    break
                if due > loop.time():
                    await asyncio.sleep(due - loop.time())
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        writer.close()

    await asyncio.gather(read(), write())


async def main(listen_port, target_port, delay):
    async def serve(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pipe(client_reader, server_writer, 0.0), pipe(server_reader, client_writer, delay)
        )

    server = await asyncio.start_server(serve, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000.0))
