function v = zero()
v = Vec2(0, 0);
end
