/*
 * nixshed's egress relay: runs inside a jail with a network allow-list, listens on 127.0.0.1:PORT
 * (where the jail's proxy variables point) and joins each connection to the daemon's egress proxy,
 * a Unix socket bound into the jail. One process and one epoll loop for every connection: socat's
 * fork per connection cost about 5 ms each (npm run bench -- egress). It decides nothing; the
 * proxy does. Usage: nixshed-egress-relay PORT SOCKET
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Bytes in flight per direction of a connection. */
#define BUFFER_BYTES (128 * 1024)

struct pair;

/* One socket of a pair; side 0 is the program's connection, side 1 the proxy's. */
struct end {
  struct pair *pair;
  int side;
};

/* A direction: what was read from ends[from] and not yet written to the other end. */
struct flow {
  char data[BUFFER_BYTES];
  size_t start, length;
  int eof;      /* ends[from] has no more to send */
  int shutdown; /* ...and the other end was told so */
};

struct pair {
  int fd[2];
  int watched[2]; /* fd[i] is in the epoll set */
  struct end ends[2];
  struct flow flow[2]; /* flow[i] goes from fd[i] to fd[1 - i] */
};

static int epoll, listener;
/* Out of descriptors or memory, the listener leaves the epoll set until a connection closes or
 * RETRY_MS pass (with none of its own open, only time frees what others hold): the next connections
 * wait in the listen queue instead of waking this loop for nothing. */
static int accepting;
#define RETRY_MS 1000
/* Stands in for an end whose pair was closed earlier in the same batch of events. */
static struct end closed;

static void die(const char *what) {
  fprintf(stderr, "nixshed-egress-relay: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void listen_for_more(int yes) {
  struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
  if (yes == accepting) return;
  if (epoll_ctl(epoll, yes ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, listener, &event) < 0) die("epoll_ctl");
  accepting = yes;
}

static void close_pair(struct pair *pair) {
  for (int i = 0; i < 2; i++) close(pair->fd[i]); /* closing removes them from the epoll set */
  free(pair);
  listen_for_more(1);
}

/* Moves what it can in one direction; returns -1 when the pair must close. */
static int pump(struct pair *pair, int from) {
  struct flow *flow = &pair->flow[from];
  int to = 1 - from;
  for (;;) {
    if (flow->length == 0 && !flow->eof) {
      ssize_t n = read(pair->fd[from], flow->data, BUFFER_BYTES);
      if (n == 0) flow->eof = 1;
      else if (n > 0) flow->start = 0, flow->length = (size_t)n;
      else if (errno == EAGAIN || errno == EINTR) break;
      else return -1;
    }
    if (flow->length > 0) {
      ssize_t n = send(pair->fd[to], flow->data + flow->start, flow->length, MSG_NOSIGNAL);
      if (n > 0) flow->start += (size_t)n, flow->length -= (size_t)n;
      else if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
      else return -1;
    }
    if (flow->eof && flow->length == 0) break;
  }
  /* Half-close: the other side learns this one is done sending, and may still answer. */
  if (flow->eof && flow->length == 0 && !flow->shutdown) {
    shutdown(pair->fd[to], SHUT_WR);
    flow->shutdown = 1;
  }
  return 0;
}

/* Each socket waits to read when its direction's buffer is empty, to write when the other's is not.
 * One that waits for neither leaves the epoll set, which would otherwise wake this loop on its
 * hang-up for as long as the other socket is slow. */
static void watch(struct pair *pair) {
  for (int i = 0; i < 2; i++) {
    struct flow *out = &pair->flow[i], *in = &pair->flow[1 - i];
    struct epoll_event event = {.events = 0, .data.ptr = &pair->ends[i]};
    if (out->length == 0 && !out->eof) event.events |= EPOLLIN;
    if (in->length > 0) event.events |= EPOLLOUT;
    if (!event.events && !pair->watched[i]) continue;
    int op = !event.events ? EPOLL_CTL_DEL : pair->watched[i] ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(epoll, op, pair->fd[i], &event) < 0) die("epoll_ctl");
    pair->watched[i] = event.events != 0;
  }
}

static int out_of_resources(void) {
  return errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
}

static void accept_all(const struct sockaddr_un *proxy) {
  /* The proxy's socket is made before a connection is taken, so that a lack of descriptors leaves
   * the connection waiting in the listen queue rather than taken and dropped. */
  static int upstream = -1;
  for (;;) {
    if (upstream < 0 && (upstream = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) < 0) {
      if (out_of_resources()) return listen_for_more(0);
      die("socket");
    }
    int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) return;
      if (out_of_resources()) return listen_for_more(0);
      die("accept");
    }
    struct pair *pair = calloc(1, sizeof *pair);
    /* A Unix socket connects at once or not at all: a proxy that does not answer drops the connection. */
    if (!pair || connect(upstream, (const struct sockaddr *)proxy, sizeof *proxy) < 0) {
      close(upstream);
      upstream = -1;
      free(pair);
      close(client);
      if (!pair) return listen_for_more(0);
      continue;
    }
    pair->fd[0] = client;
    pair->fd[1] = upstream;
    upstream = -1;
    for (int i = 0; i < 2; i++) pair->ends[i] = (struct end){pair, i};
    watch(pair);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nixshed-egress-relay PORT SOCKET\n");
    return 2;
  }
  /* A session's interrupt is for its code, not for this. */
  signal(SIGINT, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);

  struct sockaddr_un proxy = {.sun_family = AF_UNIX};
  if (strlen(argv[2]) >= sizeof proxy.sun_path) {
    fprintf(stderr, "nixshed-egress-relay: socket path too long\n");
    return 2;
  }
  strcpy(proxy.sun_path, argv[2]);

  listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int yes = 1;
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[1]))};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (listener < 0) die("socket");
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0) die("bind");
  if (listen(listener, SOMAXCONN) < 0) die("listen");

  epoll = epoll_create1(EPOLL_CLOEXEC);
  if (epoll < 0) die("epoll_create1");
  listen_for_more(1);

  struct epoll_event events[64];
  for (;;) {
    int ready = epoll_wait(epoll, events, 64, accepting ? -1 : RETRY_MS);
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("epoll_wait");
    }
    if (ready == 0) listen_for_more(1);
    for (int i = 0; i < ready; i++) {
      struct end *end = events[i].data.ptr;
      if (end == &closed) continue;
      if (!end) {
        accept_all(&proxy);
        continue;
      }
      struct pair *pair = end->pair;
      /* Both directions, whichever socket woke: a write that frees room lets the other read again. */
      if (pump(pair, 0) < 0 || pump(pair, 1) < 0 || (pair->flow[0].shutdown && pair->flow[1].shutdown)) {
        /* The other socket of this pair may be further down this batch: it must not be used. */
        for (int j = i + 1; j < ready; j++)
          if (events[j].data.ptr && ((struct end *)events[j].data.ptr)->pair == pair) events[j].data.ptr = &closed;
        close_pair(pair);
        continue;
      }
      watch(pair);
    }
  }
}
