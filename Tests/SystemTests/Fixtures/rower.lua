-- The rower's sensor test: 500 m on the flywheel's distance, then a short rest.
return workout {
  name = "Rower 500",
  countdown = 0,
  work{ distance = 500, name = "Piece", cap = 60, info = { pace = "2:00/500m" } },
  rest(2),
}
