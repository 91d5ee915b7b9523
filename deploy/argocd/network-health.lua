-- Argo CD health of a samplecrd.k8s.io Network, read from the conditions the controller
-- writes (kstatus convention): Stalled is Degraded, Reconciling is Progressing, Ready for
-- the current generation is Healthy; Paused (the reconcile annotation) is Suspended. Argo
-- CD runs this with the object as `obj`.
local generation = obj.metadata.generation or 0
local hs = {status = "Progressing", message = "Waiting for the controller to carry out generation " .. generation}
if obj.status == nil or obj.status.conditions == nil or (obj.status.observedGeneration or 0) < generation then
  return hs
end

local found = {}
for _, condition in ipairs(obj.status.conditions) do
  if condition.status == "True" or condition.type == "Ready" then
    if (condition.observedGeneration or generation) == generation then
      found[condition.type] = condition
    end
  end
end

local function describe(condition)
  return (condition.reason or "") .. ": " .. (condition.message or "")
end

if found.Paused ~= nil then
  hs.status = "Suspended"
  hs.message = describe(found.Paused)
elseif found.Stalled ~= nil then
  hs.status = "Degraded"
  hs.message = describe(found.Stalled)
elseif found.Reconciling ~= nil then
  hs.message = describe(found.Reconciling)
elseif found.Ready ~= nil and found.Ready.status == "True" then
  hs.status = "Healthy"
  hs.message = found.Ready.message or ""
elseif found.Ready ~= nil then
  -- Ready=False without either condition: a status written by a controller older than
  -- them, which retries.
  hs.message = describe(found.Ready)
end
return hs
