// The ways out of a jail that never reach its proxy: a direct connection (refused by a closed port
// of the jail's own loopback), a datagram (DNS included: with no resolver configured it goes to the
// jail's 127.0.0.1:53, where nothing listens) and an address with no route. The jail's kernel counts
// them in its network namespace; the relay's counters script (nix/backends/bubblewrap.nix) reads
// them there and sends them to the proxy on a connection that starts "NIXSHED-COUNTERS". A run
// sends one line when its program is done; a session answers each newline the daemon sends.
//
// The lines come from inside the jail, so they are only believed about that jail's own calls: a
// program can make its own report wrong, nothing more. Each line is checked before it is kept.
import type { Socket } from "node:net";

export interface Counts {
  /** Connections refused by a closed port (a direct connection to 127.0.0.1:PORT lands on the jail's own loopback). */
  refused: number;
  /** Datagrams to a port where nothing listens (DNS included). */
  datagrams: number;
  /** Connections and datagrams to an address the jail has no route to. */
  noRoute: number;
}

export const NO_COUNTS: Counts = { refused: 0, datagrams: 0, noRoute: 0 };

/** The first line of a counters connection (the rest of the head is empty). */
export const COUNTERS_HEAD = "NIXSHED-COUNTERS\r\n\r\n";
const LINE = /^(final|now) (\d{1,15}) (\d{1,15}) (\d{1,15})$/;
/** Longer than any line the script writes: the connection is cut. */
const MAX_LINE = 128;
/** How long a session call's end waits for the jail to answer. */
const ANSWER_MS = 1000;

export class JailCounters {
  /** The newest counts a jail sent. */
  latest: Counts = NO_COUNTS;
  private session?: Socket;
  private waiting: (() => void)[] = [];

  /** Reads a counters connection (after its head, with `rest` already received). */
  attach(socket: Socket, rest: Buffer): void {
    let pending = rest.toString("latin1");
    const take = () => {
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const match = LINE.exec(pending.slice(0, end));
        pending = pending.slice(end + 1);
        if (!match) return void socket.destroy();
        this.latest = { refused: Number(match[2]), datagrams: Number(match[3]), noRoute: Number(match[4]) };
        for (const wake of this.waiting.splice(0)) wake();
        // A run's last word: ending our side lets its socat, and so the jail, finish at once.
        if (match[1] === "final") {
          if (this.session === socket) this.session = undefined;
          return void socket.end();
        }
      }
      if (pending.length > MAX_LINE) socket.destroy();
    };
    // The first connection that waits for questions is the session's (its script starts before the program).
    this.session ??= socket;
    socket.once("close", () => {
      if (this.session === socket) this.session = undefined;
    });
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      pending += chunk;
      take();
    });
    socket.resume();
    take();
  }

  /**
   * Asks a session's jail for its counts now; resolves when it answered or could not. One that does
   * not answer in time (its script was killed from inside) is not asked again.
   */
  refresh(): Promise<void> {
    const session = this.session;
    if (!session || session.destroyed || session.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      const answered = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((wake) => wake !== answered);
        if (this.session === session) this.session = undefined;
        resolve();
      }, ANSWER_MS);
      this.waiting.push(answered);
      session.write("\n");
    });
  }
}

/** What was counted between two readings (never less than nothing, whatever a jail sent). */
export function countsSince(from: Counts, to: Counts): Counts {
  const since = (key: keyof Counts) => Math.max(0, to[key] - from[key]);
  return { refused: since("refused"), datagrams: since("datagrams"), noRoute: since("noRoute") };
}
