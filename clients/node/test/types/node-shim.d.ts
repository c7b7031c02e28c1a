// Stands in for @types/node, which cannot be installed where these types are
// checked (no npm registry; Debian packages no @types/node): the part of
// 'node:events' that catalogd's types use, as @types/node declares it. A Node
// project's own @types/node takes its place.
declare module 'node:events' {
  export class EventEmitter {
    on(eventName: string | symbol, listener: (...args: any[]) => void): this;
    once(eventName: string | symbol, listener: (...args: any[]) => void): this;
    off(eventName: string | symbol, listener: (...args: any[]) => void): this;
    emit(eventName: string | symbol, ...args: any[]): boolean;
    listenerCount(eventName: string | symbol): number;
  }
}
