// Marks a space as being re-embedded: until reembed_space_finish its recorded embedder is
// $marker, which no embedder is, so `realm serve` refuses it while its memories hold the
// vectors of two embedders. A space without a node records nothing.
// Params: $space, $marker, $dims. Returns: nothing.
MATCH (s:Space {id: $space})
SET s.embedder = $marker, s.dims = $dims
