// Migration 11 of both SQL dialects (sql_dialects.cpp): puzzles, their solvers' puzzle ratings
// and every rated attempt (docs/puzzles.md, "Storage"). Themes are stored between commas
// (",capture,escape,") so that one LIKE finds a theme; an attempt's key (user, puzzle) makes a
// second attempt at a puzzle, replayed or not, insert nothing.
#pragma once

namespace ur::server {

inline constexpr const char* kSqlitePuzzleSchema = R"sql(
      CREATE TABLE puzzles (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        position   TEXT    NOT NULL,
        throw_k    INTEGER NOT NULL,
        moves      TEXT    NOT NULL,
        best       TEXT    NOT NULL,
        themes     TEXT    NOT NULL,
        difficulty REAL    NOT NULL,
        rating     REAL    NOT NULL,
        deviation  REAL    NOT NULL,
        volatility REAL    NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        solved     INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX puzzles_rating ON puzzles(rules, rating);
      CREATE TABLE puzzle_ratings (
        user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        rating     REAL    NOT NULL,
        deviation  REAL    NOT NULL,
        volatility REAL    NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        solved     INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE puzzle_attempts (
        user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        puzzle_id     TEXT    NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
        move          TEXT    NOT NULL,
        solved        INTEGER NOT NULL,
        rating_before REAL    NOT NULL,
        rating_after  REAL    NOT NULL,
        puzzle_before REAL    NOT NULL,
        puzzle_after  REAL    NOT NULL,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (user_id, puzzle_id)
      );
      CREATE INDEX puzzle_attempts_user ON puzzle_attempts(user_id, created_at);
    )sql";

inline constexpr const char* kPostgresPuzzleSchema = R"sql(
      CREATE TABLE puzzles (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        position   TEXT    NOT NULL,
        throw_k    INTEGER NOT NULL,
        moves      TEXT    NOT NULL,
        best       TEXT    NOT NULL,
        themes     TEXT    NOT NULL,
        difficulty DOUBLE PRECISION NOT NULL,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        solved     INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT  NOT NULL
      );
      CREATE INDEX puzzles_rating ON puzzles(rules, rating);
      CREATE TABLE puzzle_ratings (
        user_id    BIGINT  PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        rating     DOUBLE PRECISION NOT NULL,
        deviation  DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        solved     INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE puzzle_attempts (
        user_id       BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        puzzle_id     TEXT    NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
        move          TEXT    NOT NULL,
        solved        BOOLEAN NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating_after  DOUBLE PRECISION NOT NULL,
        puzzle_before DOUBLE PRECISION NOT NULL,
        puzzle_after  DOUBLE PRECISION NOT NULL,
        created_at    BIGINT  NOT NULL,
        PRIMARY KEY (user_id, puzzle_id)
      );
      CREATE INDEX puzzle_attempts_user ON puzzle_attempts(user_id, created_at);
    )sql";

}  // namespace ur::server
