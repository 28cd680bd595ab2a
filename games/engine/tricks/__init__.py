"""The trick library: dealing, following and overtaking, auctions, redeal polls, perft and the
trick view, as one implementation of the game protocol (``games.engine.game``) that the trick
games build on."""
