// All sessions of one daemon: created by the first call naming them, reused after, closed by
// close_session, by the limits (idle timeout, maximum lifetime, the least recently used idle one
// when a new session needs room) and all at once on shutdown. A call naming a session the daemon
// closed on its own learns why in its result.
import type { JailBudget } from "../../jail/budget.js";
import type { Environment } from "../../discovery/types.js";
import { SandboxError } from "../errors.js";
import type { KernelCall } from "./kernel.js";
import type { KernelLauncher } from "./launcher.js";
import { Session, type SessionInfo, type SessionResult } from "./session.js";

export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
  maxLifetimeMs: number;
}

export interface SessionManagerOptions {
  launcher: KernelLauncher;
  limits: SessionLimits;
  /** The daemon's jail budget, which session calls share with one-off runs. */
  budget?: JailBudget;
  now?: () => number;
  /** How often expired sessions are looked for. */
  reapIntervalMs?: number;
}

/** Why closed sessions were closed, remembered for this many of them. */
const REMEMBERED_CLOSURES = 256;

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  /** Why each closed session was closed, and its env (a later call without one starts it there again). */
  private readonly closures = new Map<string, { why: string; env: string }>();
  private readonly now: () => number;
  private readonly reaper: NodeJS.Timeout;
  private shuttingDown = false;

  constructor(private readonly options: SessionManagerOptions) {
    this.now = options.now ?? Date.now;
    this.reaper = setInterval(() => this.reap(), options.reapIntervalMs ?? 1000);
    this.reaper.unref();
  }

  /** Runs code in the named session, creating it (in `env`) if it does not exist. */
  run(id: string, env: Environment, call: KernelCall): Promise<SessionResult> {
    if (this.shuttingDown) throw new SandboxError("the daemon is shutting down");
    let session = this.sessions.get(id);
    if (session && session.env.name !== env.name) {
      throw new SandboxError(
        `session '${id}' runs in env '${session.env.name}', not '${env.name}'`,
        `Call run with env '${session.env.name}' to use this session, or name another session for '${env.name}'.`,
      );
    }
    if (!session) {
      const evicted = this.makeRoom(id);
      const closure = this.closures.get(id);
      this.closures.delete(id);
      const notices = [
        ...(closure ? [`Fresh session: '${id}' was ${closure.why}; its state is gone.`] : []),
        ...(evicted
          ? [`Closed session '${evicted}', the least recently used, to make room (at most ${this.options.limits.maxSessions} sessions).`]
          : []),
      ];
      const notice = notices.length ? notices.join(" ") : undefined;
      session = new Session(id, env, { launcher: this.options.launcher, now: this.now, budget: this.options.budget }, notice);
      this.sessions.set(id, session);
    }
    return session.run(call);
  }

  /** The env of a live session, or of one the daemon closed on its own. */
  envOf(id: string): string | undefined {
    return this.sessions.get(id)?.env.name ?? this.closures.get(id)?.env;
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((session) => session.info());
  }

  /** Why the daemon closed a session on its own ("closed after 600 s without calls …"), while it remembers. */
  closedWhy(id: string): string | undefined {
    return this.closures.get(id)?.why;
  }

  /** Closes a session; false when there is none of that name. */
  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    await this.closeSession(session);
    return true;
  }

  /** Kills every session (client gone, SIGTERM, SIGINT). */
  async closeAll(): Promise<void> {
    this.shuttingDown = true;
    clearInterval(this.reaper);
    await Promise.all([...this.sessions.values()].map((session) => this.closeSession(session)));
  }

  /** Closes the least recently used idle session when there are as many as allowed; its id, if one was. */
  private makeRoom(forId: string): string | undefined {
    const { maxSessions } = this.options.limits;
    if (this.sessions.size < maxSessions) return undefined;
    const idle = [...this.sessions.values()].filter((session) => !session.busy);
    if (idle.length === 0) {
      throw new SandboxError(
        `cannot start session '${forId}': all ${maxSessions} sessions are busy`,
        "Wait for a call to finish, close a session with close_session, or run without `session` (sandbox.sessions.max_sessions sets the limit).",
      );
    }
    const oldest = idle.reduce((a, b) => (b.lastUsedAt < a.lastUsedAt ? b : a));
    void this.closeSession(
      oldest,
      `closed to make room for session '${forId}' (at most ${maxSessions} sessions; it was the least recently used)`,
    );
    return oldest.id;
  }

  private reap(): void {
    const { idleTimeoutMs, maxLifetimeMs } = this.options.limits;
    const now = this.now();
    for (const session of this.sessions.values()) {
      if (session.busy) continue;
      if (now - session.createdAt >= maxLifetimeMs) {
        void this.closeSession(
          session,
          `closed at the end of its maximum lifetime of ${maxLifetimeMs / 1000} s (sandbox.sessions.max_lifetime_seconds)`,
        );
      } else if (now - session.lastUsedAt >= idleTimeoutMs) {
        void this.closeSession(session, `closed after ${idleTimeoutMs / 1000} s without calls (sandbox.sessions.idle_timeout_seconds)`);
      }
    }
  }

  private closeSession(session: Session, why?: string): Promise<void> {
    this.sessions.delete(session.id);
    if (why) {
      this.closures.set(session.id, { why, env: session.env.name });
      if (this.closures.size > REMEMBERED_CLOSURES) this.closures.delete(this.closures.keys().next().value!);
    }
    return session.close();
  }
}
